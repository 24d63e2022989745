import { createStore } from "./store";

/** Spec 4: upload item statuses. */
export type UploadStatus = "waiting" | "uploading" | "uploaded" | "saving" | "busy" | "completed" | "error";

/** Spec 3 "Upload queue item", plus what the queue and the status panel track (app/lib/upload-queue.ts). */
export interface UploadItem {
  file: File;
  groupId: string;
  assetId: string | null;
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
