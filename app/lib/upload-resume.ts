import { createStore } from "./store";
import type { UploadInto } from "./uploads";

/**
 * Unfinished uploads survive a reload in localStorage (decision 015): enough to recognise the same file
 * when the user selects it again (name, size, lastModified) and to continue its server-side upload.
 */
export interface PendingUpload {
  uploadId: string;
  assetId: string;
  groupId: string;
  name: string;
  size: number;
  lastModified: number;
  mime: string;
  /** An upload into an existing asset: continuing or forgetting it leaves the asset be. */
  into?: UploadInto;
}

const KEY = "mam.uploads.pending";

function read(): PendingUpload[] {
  try {
    return typeof localStorage === "undefined" ? [] : (JSON.parse(localStorage.getItem(KEY) ?? "[]") as PendingUpload[]);
  } catch {
    return [];
  }
}

/**
 * The server renders none (`initial`, which hydration matches); in the browser the store holds what this storage
 * kept from the moment the module loads, and `useStore` shows it right after hydration.
 */
export const pendingStore = createStore<readonly PendingUpload[]>([]);
if (typeof window !== "undefined") pendingStore.set(read());

function write(next: PendingUpload[]) {
  pendingStore.set(next);
  if (typeof localStorage !== "undefined") localStorage.setItem(KEY, JSON.stringify(next));
}

export function rememberUpload(entry: PendingUpload): void {
  write([...pendingStore.get().filter((p) => p.uploadId !== entry.uploadId), entry]);
}

export function forgetUpload(uploadId: string | null): void {
  if (uploadId && pendingStore.get().some((p) => p.uploadId === uploadId)) write(pendingStore.get().filter((p) => p.uploadId !== uploadId));
}

export function matchPending(file: File): PendingUpload | undefined {
  return pendingStore.get().find((p) => p.name === file.name && p.size === file.size && p.lastModified === file.lastModified);
}
