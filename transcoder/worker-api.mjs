/**
 * Calls to the Worker: the job's signed source and destination URLs and its callback URL with the
 * per-task token, all under the Worker's origin (checked when the job was accepted, transcoder/http.mjs).
 * Redirects are not followed, so none leads anywhere else (a 3xx fails the call). A 409 means the
 * Worker no longer wants this run (paused, cancelled, re-dispatched), and so does a 401 (the token is no
 * longer the task's current one: it was re-dispatched): the job stops. Network errors and 5xx are retried
 * with backoff, so a Worker restart loses nothing.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Outputs over this many bytes go in parts (TRANSCODER_PART_SIZE; default 90 MiB, under the 100 MB
 * request cap). Storage wants parts of at least 5 MiB, so smaller settings are raised to that.
 */
export const outputPartSize = () => Math.max(5 * 1024 * 1024, Number(process.env.TRANSCODER_PART_SIZE) || 90 * 1024 * 1024);

export class Stale extends Error {
  stale = true;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {string} what
 * @param {() => Promise<Response>} fn
 * @param {{ tries?: number, signal?: AbortSignal }} [options]
 * @returns {Promise<Response>}
 */
async function withRetry(what, fn, { tries = 8, signal } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fn();
      if (res.status === 409 || res.status === 401) throw new Stale(`${what}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
      if (res.status >= 500 || res.status === 429)
        throw Object.assign(new Error(`${what}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`), { retry: true });
      if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
      return res;
    } catch (caught) {
      const err = /** @type {{ retry?: boolean, stale?: boolean, name?: string, code?: string, cause?: { code?: string } }} */ (caught);
      const retriable = err.retry || err.name === "TypeError" || err.code === "ECONNREFUSED" || err.cause?.code;
      if (err.stale || signal?.aborted || !retriable || attempt >= tries) throw caught;
      await sleep(Math.min(30_000, 500 * 2 ** attempt));
    }
  }
}

export function workerApi(job, signal) {
  const headers = { "X-Task-Token": job.callback.token };
  const post = (path, body) =>
    withRetry(
      path,
      () =>
        fetch(`${job.callback.url}/${path}`, {
          redirect: "manual",
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({ run: job.run, ...body }),
          signal,
        }),
      { signal },
    );
  return {
    progress: (body) => post("progress", body).then((r) => r.json()),
    result: (body) => post("result", body).then((r) => r.json()),
    fail: (body) => post("fail", body).then((r) => r.json()),

    /**
     * Streams the source to `file`, hashing it on the way (the Worker checks the client's claimed sha256).
     * `until` stops it: the job's own signal, or the source cache's when the download is shared.
     */
    async download(file, until = signal) {
      const res = await withRetry("source", () => fetch(job.source.url, { redirect: "manual", signal: until }), { signal: until });
      const hash = createHash("sha256");
      const tap = new Transform({
        transform(chunk, _enc, cb) {
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      // A 2xx from fetch has a body; the DOM and Node typings name the same ReadableStream twice.
      const body = /** @type {import("node:stream/web").ReadableStream} */ (res.body);
      await pipeline(Readable.fromWeb(body), tap, createWriteStream(file), { signal: until });
      return hash.digest("hex");
    },

    /**
     * PUTs one output with its exact length (the Worker streams it into storage; it refuses unknown
     * lengths). One larger than `partSize` goes in parts, since a request body through Cloudflare is
     * capped at 100 MB: start, parts of one size (the last smaller), complete. Returns bytes and parts.
     */
    async upload(name, file, mime, partSize = outputPartSize()) {
      const { size } = await stat(file);
      const put = (url, start, length) =>
        withRetry(
          `output ${name}`,
          () =>
            // Node streams a request body only with `duplex: "half"`, which the DOM typings do not know yet.
            fetch(
              url,
              /** @type {RequestInit & { duplex: "half" }} */ ({
                redirect: "manual",
                method: "PUT",
                headers: { ...headers, "Content-Type": mime, "Content-Length": String(length) },
                body: length ? /** @type {BodyInit} */ (Readable.toWeb(createReadStream(file, { start, end: start + length - 1 }))) : "",
                duplex: "half",
                signal,
              }),
            ),
          { signal },
        );
      if (size <= partSize) {
        await put(job.outputs[name], 0, size);
        return { size, parts: 1 };
      }
      const at = (suffix, params = {}) => {
        const u = new URL(job.outputs[name]);
        u.pathname += suffix;
        for (const [k, v] of Object.entries(params)) u.searchParams.set(k, String(v));
        return u.toString();
      };
      const postJson = (url, body) =>
        withRetry(
          `output ${name}`,
          () =>
            fetch(url, {
              redirect: "manual",
              method: "POST",
              headers: { ...headers, "Content-Type": "application/json" },
              body: JSON.stringify(body),
              signal,
            }),
          { signal },
        ).then((r) => r.json());
      const { upload_id } = await postJson(at("/multipart"), { mime });
      const parts = [];
      for (let part = 1, start = 0; start < size; part++, start += partSize) {
        const res = await put(at(`/part/${part}`, { upload_id }), start, Math.min(partSize, size - start));
        parts.push({ part, etag: (await res.json()).etag });
      }
      await postJson(at("/complete"), { upload_id, parts });
      return { size, parts: parts.length };
    },
  };
}
