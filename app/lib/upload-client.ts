import { watchDuplicates } from "./duplicate-watch";
import { showError } from "./notify";
import type { FromWorker } from "./upload-protocol";
import { UploadQueue, type UploadPort } from "./upload-queue";
import { uploadServer } from "./upload-servers";

/** The page's one upload queue, its transfers in a module Web Worker (Vite bundles the worker file). */
function workerPort(): UploadPort {
  const worker = new Worker(new URL("./upload.worker.ts", import.meta.url), { type: "module" });
  return {
    post: (message) => worker.postMessage(message),
    listen: (listener) => worker.addEventListener("message", (event: MessageEvent<FromWorker>) => listener(event.data)),
  };
}

let queue: UploadQueue | null = null;

export function uploadQueue(): UploadQueue {
  queue ??= new UploadQueue({ port: workerPort, onError: showError, uploadServer, onCompleted: watchDuplicates });
  return queue;
}
