import { createStore } from "./store";

/** Spec 4: upload item statuses. */
export type UploadStatus = "waiting" | "uploading" | "uploaded" | "saving" | "busy" | "completed" | "error";

/**
 * An upload into an asset that exists already (decision 055): a new version (nothing set), an extra variant of a
 * version, or the first file of an asset made empty. Cancelling one never deletes the asset.
 */
export interface UploadInto {
  version?: number;
  variantType?: "initial" | "master" | "proxy_lowres" | "proxy_highres" | "watermarked" | "untyped";
  variantName?: string;
}

/** Spec 3 "Upload queue item", plus what the queue and the status panel track (app/lib/upload-queue.ts). */
export interface UploadItem {
  file: File;
  groupId: string;
  assetId: string | null;
  /** Set when the item goes into an existing asset (`assetId`) rather than creating one. */
  into?: UploadInto;
  ctime: number;
  status: UploadStatus;
  progress: number;
  /** Identifies the item in worker messages. */
  key: string;
  /** The server-side upload, once started; kept for resumption after a reload. */
  uploadId: string | null;
  /** Bytes the server holds or has received for this item. */
  loaded: number;
  error?: string;
}

export const uploadsStore = createStore<readonly UploadItem[]>([]);

/** Spec 4: the queue is done when every item is completed or error (an empty queue is done). */
export function isQueueDone(items: readonly UploadItem[]): boolean {
  return items.every((item) => item.status === "completed" || item.status === "error");
}
