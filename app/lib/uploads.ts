import { createStore } from "./store";

/** Spec 4: upload item statuses. */
export type UploadStatus = "waiting" | "uploading" | "uploaded" | "saving" | "busy" | "completed" | "error";

/** Spec 3 "Upload queue item". The upload queue itself (and its Web Worker) comes later. */
export interface UploadItem {
  file: File;
  groupId: string;
  assetId: string | null;
  ctime: number;
  status: UploadStatus;
  progress: number;
}

export const uploadsStore = createStore<readonly UploadItem[]>([]);

/** Spec 4: the queue is done when every item is completed or error (an empty queue is done). */
export function isQueueDone(items: readonly UploadItem[]): boolean {
  return items.every((item) => item.status === "completed" || item.status === "error");
}
