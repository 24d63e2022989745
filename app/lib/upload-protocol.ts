/**
 * The upload worker's logic (docs/decisions/007-uploads.md and 015-upload-queue.md), kept free of
 * worker globals so the queue's unit tests can run it in-process: upload.worker.ts only wires it to
 * postMessage. Parts go up several at a time, each retried with backoff; a resumed upload sends only the
 * parts GET /api/ul/{id} reports missing.
 */
import type * as uploads from "../../shared/uploads/contract";
import type { Answer } from "./api";
import { BOOKMARK_HEADER } from "./db-bookmark";
import type { UploadInto, UploadStatus } from "./uploads";

export const PARALLEL_PARTS = 4;
export const PART_ATTEMPTS = 5;
const MiB = 1024 * 1024;
/** Small parts for ordinary files give finer progress and cheaper retries; the server's minimum is 5 MiB. */
const partSizeFor = (size: number) => (size > 20_000 * MiB ? undefined : 5 * MiB);

/** Main thread → worker. */
export type ToWorker =
  | {
      type: "startUpload";
      key: string;
      file: Blob;
      name: string;
      mime: string;
      assetId: string;
      /** Into an existing asset: the target version and variant (absent: a new asset's first file). */
      into?: UploadInto;
      uploadId?: string;
      bearer: string | null;
      /** The upload server's base (its /ul), when another than this Worker was chosen (upload-servers.ts). */
      server?: string;
    }
  | { type: "cancelUpload"; key: string }
  | { type: "setBearer"; bearer: string | null };

/** Worker → main thread: the upload queue's message names (upload-queue.ts), plus a request for a fresh bearer after a 401. */
export type FromWorker =
  | { type: "changeStatus"; key: string; status: UploadStatus; uploadId?: string }
  | { type: "updateProgress"; key: string; loaded: number; total: number }
  /** bookmark: the database session after the last write, so the page's next reads see the new asset (db-bookmark.ts). */
  | { type: "uploadCompleted"; key: string; assetId: string; contentSize: number; bookmark?: string }
  | { type: "uploadError"; key: string; message: string }
  | { type: "cancelUpload"; key: string; uploadId: string | null }
  | { type: "resumeUpload"; key: string }
  | { type: "needBearer" }
  /** The chosen upload server stopped answering; the upload went on through this Worker. */
  | { type: "serverDown"; server: string };

/**
 * The upload routes' answers, typed by their definitions (shared/uploads/contract.ts). The worker sends them with
 * its own fetch, to the chosen upload server: call() and the contract's values stay out of its bundle.
 */
type ServerUpload = Answer<typeof uploads.startUpload>;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** PUT with upload progress where XMLHttpRequest exists (browsers, workers); plain fetch elsewhere. */
function putPart(url: string, body: Blob, signal: AbortSignal, onProgress: (sent: number) => void): Promise<string> {
  if (typeof XMLHttpRequest === "undefined") {
    return fetch(url, { method: "PUT", body, signal }).then((res) => {
      if (!res.ok) throw new HttpError(res.status, `PUT part: ${res.status}`);
      onProgress(body.size);
      return res.headers.get("ETag") ?? "";
    });
  }
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve(xhr.getResponseHeader("ETag") ?? "")
        : reject(new HttpError(xhr.status, `PUT part: ${xhr.status}`));
    xhr.onerror = () => reject(new HttpError(0, "PUT part: network error"));
    xhr.onabort = () => reject(signal.reason);
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** The network's state as the worker sees it; tests pass their own. */
export interface Connectivity {
  online(): boolean;
  waitOnline(): Promise<void>;
}

const browserConnectivity: Connectivity = {
  online: () => typeof navigator === "undefined" || navigator.onLine !== false,
  waitOnline: () => new Promise((resolve) => globalThis.addEventListener("online", () => resolve(), { once: true })),
};

/** A request that never got an answer (as opposed to an HTTP error status). */
const unanswered = (error: unknown) => !(error instanceof HttpError) || error.status === 0;

export function createUploadHandler(post: (message: FromWorker) => void, origin = "", net: Connectivity = browserConnectivity) {
  let bearer: string | null = null;
  let bearerWaiters: (() => void)[] = [];
  const jobs = new Map<string, { controller: AbortController; uploadId: string | null }>();

  /** The upload routes go to the job's server (its base ends in /ul); everything else to this Worker. */
  let server: string | undefined;
  const onOtherServer = (path: string) => Boolean(server && path.startsWith("/ul/"));
  const urlOf = (path: string) => (onOtherServer(path) ? `${server}${path.slice("/ul".length)}` : `${origin}/api${path}`);
  /** This Worker's database session (functions/lib/db-session.ts); other servers are not asked for it. */
  let bookmark: string | undefined;

  async function call<T>(path: string, signal: AbortSignal, init: { method?: string; json?: unknown } = {}, renewed = false): Promise<T> {
    const here = !onOtherServer(path);
    const res = await fetch(urlOf(path), {
      method: init.method ?? (init.json === undefined ? "GET" : "POST"),
      headers: {
        "Content-Type": "application/json",
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        ...(here && bookmark ? { [BOOKMARK_HEADER]: bookmark } : {}),
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      signal,
    });
    const answered = here ? res.headers.get(BOOKMARK_HEADER) : null;
    if (answered && (!bookmark || answered > bookmark)) bookmark = answered;
    if (res.status === 401 && !renewed) {
      // The bearer expired mid-upload: ask the page for a fresh one and try once more.
      const waited = new Promise<void>((resolve) => bearerWaiters.push(resolve));
      post({ type: "needBearer" });
      await Promise.race([waited, sleep(30_000, signal)]);
      return call(path, signal, init, true);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = JSON.parse(text).error?.message ?? text;
      } catch {
        /* not JSON: keep the text */
      }
      throw new HttpError(res.status, message || `HTTP ${res.status}`);
    }
    return (text ? JSON.parse(text) : null) as T;
  }

  async function withRetry<T>(signal: AbortSignal, attempt: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        // Client errors other than timeouts and rate limits will not get better by trying again.
        const status = error instanceof HttpError ? error.status : 0;
        const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
        if (signal.aborted || permanent || n >= PART_ATTEMPTS || !net.online()) throw error;
        await sleep(Math.min(8000, 250 * 2 ** n), signal);
      }
    }
  }

  type Job = { controller: AbortController; uploadId: string | null };

  /**
   * Through the chosen server; if it stops answering, on through this Worker: the upload's state is in the shared
   * database, so the Worker continues with the parts still missing.
   */
  async function run(msg: Extract<ToWorker, { type: "startUpload" }>, job: Job) {
    server = msg.server;
    try {
      await transfer(msg, job);
    } catch (error) {
      const down = server;
      if (!down || job.controller.signal.aborted || !unanswered(error) || !net.online()) throw error;
      server = undefined;
      post({ type: "serverDown", server: down });
      await transfer({ ...msg, uploadId: job.uploadId ?? msg.uploadId }, job);
    }
  }

  async function transfer(msg: Extract<ToWorker, { type: "startUpload" }>, job: Job) {
    const { signal } = job.controller;
    const { key, file } = msg;
    post({ type: "changeStatus", key, status: "uploading" });
    const up = msg.uploadId
      ? await call<ServerUpload>(`/ul/${msg.uploadId}`, signal)
      : await call<ServerUpload>("/ul/start", signal, {
          json: {
            asset_id: msg.assetId,
            size: file.size,
            name: msg.name,
            mime: msg.mime,
            part_size: partSizeFor(file.size),
            ...(msg.into
              ? {
                  version: msg.into.version,
                  variant_type: msg.into.variantType,
                  variant_name: msg.into.variantName,
                  // The asset was there before this file: a cancelled upload must not take it away.
                  keep_asset: true,
                }
              : {}),
          },
        });
    job.uploadId = up.upload_id;
    post({ type: "changeStatus", key, status: "uploading", uploadId: up.upload_id });

    const partBytes = (n: number) => Math.min(up.part_size, up.size - (n - 1) * up.part_size);
    const sent = new Map<number, number>();
    const held = up.size - up.missing.reduce((sum, n) => sum + partBytes(n), 0);
    const report = () => {
      let loaded = held;
      for (const v of sent.values()) loaded += v;
      post({ type: "updateProgress", key, loaded, total: up.size });
    };
    report();

    const queue = [...up.missing];
    const lane = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const part = n;
        const chunk = file.slice((part - 1) * up.part_size, (part - 1) * up.part_size + partBytes(part));
        await withRetry(signal, async () => {
          sent.set(part, 0);
          const [target] = await call<Answer<typeof uploads.partTargets>>(`/ul/${up.upload_id}/targets`, signal, {
            json: { parts: [part] },
          });
          const etag = await putPart(new URL(target.url, origin || undefined).href, chunk, signal, (bytes) => {
            sent.set(part, bytes);
            report();
          });
          await call(`/ul/${up.upload_id}/parts/${part}`, signal, { json: { etag } });
          sent.set(part, chunk.size);
          report();
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, Math.max(1, queue.length)) }, lane));

    post({ type: "changeStatus", key, status: "uploaded" });
    post({ type: "changeStatus", key, status: "saving" });
    const done = await withRetry(signal, () =>
      call<Answer<typeof uploads.completeUpload>>(`/ul/${up.upload_id}/complete`, signal, { method: "POST" }),
    );
    post({ type: "uploadCompleted", key, assetId: done.asset_id, contentSize: done.content_size, bookmark });
  }

  return function handle(msg: ToWorker) {
    if (msg.type === "setBearer") {
      bearer = msg.bearer;
      const waiters = bearerWaiters;
      bearerWaiters = [];
      for (const wake of waiters) wake();
      return;
    }
    if (msg.type === "cancelUpload") {
      const job = jobs.get(msg.key);
      if (!job) return post({ type: "cancelUpload", key: msg.key, uploadId: null });
      job.controller.abort(new Error("canceled"));
      return;
    }
    if (msg.bearer) bearer = msg.bearer;
    const job = { controller: new AbortController(), uploadId: msg.uploadId ?? null };
    jobs.set(msg.key, job);
    run(msg, job)
      .catch(async (error: unknown) => {
        const { signal } = job.controller;
        if (!signal.aborted && unanswered(error) && !net.online()) {
          // Offline: once the network is back the queue takes the item again and it continues where it stopped.
          const cancelled = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
          await Promise.race([net.waitOnline(), cancelled]);
          if (!signal.aborted) return post({ type: "resumeUpload", key: msg.key });
        }
        if (!signal.aborted)
          return post({ type: "uploadError", key: msg.key, message: error instanceof Error ? error.message : String(error) });
        // Cancelled: abort the server-side upload too, so its parts are dropped; the page deletes the asset.
        if (job.uploadId) await call(`/ul/${job.uploadId}`, new AbortController().signal, { method: "DELETE" }).catch(() => undefined);
        post({ type: "cancelUpload", key: msg.key, uploadId: job.uploadId });
      })
      .finally(() => jobs.get(msg.key) === job && jobs.delete(msg.key));
  };
}
