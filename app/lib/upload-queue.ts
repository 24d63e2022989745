import * as assets from "../../shared/assets/contract";
import { ApiError, call, refreshTokens } from "./api";
import { noteBookmark } from "./db-bookmark";
import { sessionStore } from "./session";
import type { Store } from "./store";
import type { FromWorker, ToWorker } from "./upload-protocol";
import { forgetUpload, matchPending, rememberUpload } from "./upload-resume";
import { uploadsStore, type UploadInto, type UploadItem, type UploadStatus } from "./uploads";

/**
 * The upload queue: items are taken one at a time from the waiting ones; the transfer itself runs in the
 * upload worker, which reports back with its messages (cancelUpload, uploadCompleted, uploadError,
 * changeStatus, updateProgress, resumeUpload). See docs/decisions/015-upload-queue.md.
 */

/** Where the queue's worker messages go: a Web Worker in the browser, the same handler in-process in tests. */
export interface UploadPort {
  post(message: ToWorker): void;
  listen(listener: (message: FromWorker) => void): void;
}

export interface QueueOptions {
  port: () => UploadPort;
  /** Which upload server to send to (upload-servers.ts); without it, this Worker. */
  uploadServer?: { url(): Promise<string | undefined>; down(url: string): void };
  store?: Store<readonly UploadItem[]>;
  onError?: (error: unknown) => void;
  /** Told of each asset an upload completed (the page's queue starts the duplicate check with it). */
  onCompleted?: (assetId: string) => void;
}

/** Statuses of the one item in flight; nothing else starts while an item is in one of them. */
const ACTIVE: readonly UploadStatus[] = ["uploading", "uploaded", "saving", "busy"];

let keys = 0;

export class UploadQueue {
  private portInstance: UploadPort | null = null;
  private readonly store: Store<readonly UploadItem[]>;
  private readonly listeners = new Map<string, Set<(assetId: string) => void>>();
  private readonly assetListeners = new Map<string, Set<() => void>>();
  /** Items whose cancel was asked while their asset was still being created (no worker job yet). */
  private readonly canceling = new Set<string>();

  constructor(private readonly options: QueueOptions) {
    this.store = options.store ?? uploadsStore;
  }

  get items(): readonly UploadItem[] {
    return this.store.get();
  }

  /** Adds files for a group; a file matching an unfinished upload (name, size, lastModified) continues it. */
  add(files: readonly File[], groupId: string): UploadItem[] {
    const added = files.map((file): UploadItem => {
      const pending = matchPending(file);
      return {
        file,
        groupId: pending?.groupId ?? groupId,
        assetId: pending?.assetId ?? null,
        ...(pending?.into ? { into: pending.into } : {}),
        ctime: Date.now(),
        status: "waiting",
        progress: 0,
        key: `u${++keys}`,
        uploadId: pending?.uploadId ?? null,
        loaded: 0,
      };
    });
    this.store.set([...this.items, ...added]);
    this.pump();
    return added;
  }

  /**
   * Adds one file for an existing asset (decision 055): a new version, or a variant of a version (`into`). It goes
   * through the same queue and panel; a cancel aborts the upload and leaves the asset as it was.
   */
  addInto(file: File, groupId: string, assetId: string, into: UploadInto = {}): UploadItem {
    const pending = matchPending(file);
    const resumes = pending?.assetId === assetId ? pending : undefined;
    const item: UploadItem = {
      file,
      groupId,
      assetId,
      into,
      ctime: Date.now(),
      status: "waiting",
      progress: 0,
      key: `u${++keys}`,
      uploadId: resumes?.uploadId ?? null,
      loaded: 0,
    };
    this.store.set([...this.items, item]);
    this.pump();
    return item;
  }

  /** Called when an upload into this asset (addInto) completes; returns the unsubscribe. */
  onAssetUploaded(assetId: string, listener: () => void): () => void {
    const set = this.assetListeners.get(assetId) ?? new Set();
    set.add(listener);
    this.assetListeners.set(assetId, set);
    return () => set.delete(listener);
  }

  /** Called with each asset completed in the group; returns the unsubscribe. */
  onUploaded(groupId: string, listener: (assetId: string) => void): () => void {
    const set = this.listeners.get(groupId) ?? new Set();
    set.add(listener);
    this.listeners.set(groupId, set);
    return () => set.delete(listener);
  }

  /** Spec 4: a waiting item just leaves; any other tells the worker, whose answer deletes the asset. */
  cancel(key: string): void {
    const item = this.find(key);
    if (!item) return;
    if (item.status === "waiting") {
      this.remove(key);
      return;
    }
    if (item.status === "uploading" && !item.assetId) {
      this.canceling.add(key);
      return;
    }
    this.port.post({ type: "cancelUpload", key });
  }

  /** Drops finished and failed items from the list. */
  clearFinished(): void {
    this.store.set(this.items.filter((i) => i.status !== "completed" && i.status !== "error"));
  }

  private get port(): UploadPort {
    if (!this.portInstance) {
      const port = this.options.port();
      port.listen((message) => void this.onMessage(message));
      port.post({ type: "setBearer", bearer: sessionStore.get().tokens?.bearer ?? null });
      // The worker keeps its own copy of the bearer; every refresh reaches it.
      sessionStore.subscribe((session) => port.post({ type: "setBearer", bearer: session.tokens?.bearer ?? null }));
      this.portInstance = port;
    }
    return this.portInstance;
  }

  private find(key: string) {
    return this.items.find((i) => i.key === key);
  }

  private update(key: string, patch: Partial<UploadItem>) {
    this.store.set(this.items.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  }

  private remove(key: string) {
    this.store.set(this.items.filter((i) => i.key !== key));
  }

  private fail(key: string, error: unknown) {
    this.update(key, { status: "error", error: error instanceof Error ? error.message : String(error) });
    this.options.onError?.(error);
  }

  /** Starts the first waiting item unless one is already in flight. */
  private pump(): void {
    if (this.items.some((i) => ACTIVE.includes(i.status))) return;
    const next = this.items.find((i) => i.status === "waiting");
    if (next) void this.start(next);
  }

  private async start(item: UploadItem): Promise<void> {
    this.update(item.key, { status: "uploading" });
    let assetId = item.assetId;
    if (!assetId) {
      try {
        const created = await call(assets.createAsset, {
          body: { asset_name: item.file.name, asset_mime: item.file.type || "application/octet-stream", in_group: item.groupId },
        });
        assetId = created.asset_id;
        this.update(item.key, { assetId });
      } catch (error) {
        this.canceling.delete(item.key);
        this.fail(item.key, error);
        this.pump();
        return;
      }
    }
    if (this.canceling.delete(item.key)) {
      await this.deleteAsset(item.key, assetId);
      return;
    }
    const server = await this.options.uploadServer?.url();
    this.port.post({
      type: "startUpload",
      server,
      key: item.key,
      file: item.file,
      name: item.file.name,
      mime: item.file.type || "application/octet-stream",
      assetId,
      ...(item.into ? { into: item.into } : {}),
      uploadId: item.uploadId ?? undefined,
      bearer: sessionStore.get().tokens?.bearer ?? null,
    });
  }

  private async deleteAsset(key: string, assetId: string | null) {
    const item = this.find(key);
    try {
      // The worker's abort of a new asset's only upload may already have taken the asset: 404 is done too.
      // An upload into an existing asset (a new version, a variant) leaves the asset: the abort was all.
      if (assetId && !item?.into)
        await call(assets.deleteAsset, { params: { id: assetId } }).catch((e) => {
          if (!(e instanceof ApiError && e.status === 404)) throw e;
        });
      forgetUpload(item?.uploadId ?? null);
      this.remove(key);
    } catch (error) {
      this.fail(key, error);
    }
    this.pump();
  }

  private async onMessage(message: FromWorker): Promise<void> {
    if (message.type === "needBearer") {
      await refreshTokens();
      this.port.post({ type: "setBearer", bearer: sessionStore.get().tokens?.bearer ?? null });
      return;
    }
    if (message.type === "serverDown") {
      this.options.uploadServer?.down(message.server);
      return;
    }
    const item = this.find(message.key);
    if (!item) return;
    switch (message.type) {
      case "changeStatus":
        this.update(item.key, { status: message.status, ...(message.uploadId ? { uploadId: message.uploadId } : {}) });
        if (message.uploadId && item.assetId) {
          const { name, size, lastModified, type } = item.file;
          rememberUpload({
            uploadId: message.uploadId,
            assetId: item.assetId,
            groupId: item.groupId,
            name,
            size,
            lastModified,
            mime: type,
            ...(item.into ? { into: item.into } : {}),
          });
        }
        return;
      case "updateProgress":
        this.update(item.key, { loaded: message.loaded, progress: message.total ? (message.loaded / message.total) * 100 : 100 });
        return;
      case "uploadCompleted":
        noteBookmark(message.bookmark);
        return this.completed(item, message.assetId);
      case "uploadError":
        this.fail(item.key, message.message);
        this.pump();
        return;
      case "cancelUpload":
        return this.deleteAsset(item.key, item.assetId);
      case "resumeUpload":
        this.update(item.key, { status: "waiting" });
        this.pump();
        return;
    }
  }

  /** Spec 4: on completion the asset's content size is fetched and the group's listeners hear of it. */
  private async completed(item: UploadItem, assetId: string) {
    this.update(item.key, { status: "busy", progress: 100, loaded: item.file.size });
    forgetUpload(item.uploadId);
    try {
      await call(assets.contentSize, { params: { id: assetId } });
      this.update(item.key, { status: "completed" });
      this.options.onCompleted?.(assetId);
      if (item.into) for (const listener of this.assetListeners.get(assetId) ?? []) listener();
      else for (const listener of this.listeners.get(item.groupId) ?? []) listener(assetId);
    } catch (error) {
      this.fail(item.key, error);
    }
    this.pump();
  }
}
