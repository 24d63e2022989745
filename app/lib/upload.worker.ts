import { createUploadHandler, type FromWorker, type ToWorker } from "./upload-protocol";

/** The upload Web Worker: the protocol runs off the main thread; see upload-protocol.ts. */
interface WorkerScope {
  location: { origin: string };
  postMessage(message: FromWorker): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;
const handle = createUploadHandler((message) => scope.postMessage(message), scope.location.origin);
scope.onmessage = (event) => handle(event.data);
