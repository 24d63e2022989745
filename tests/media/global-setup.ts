import type { TestProject } from "vitest/node";
import { startRecogniserStandIn } from "./recogniser-stand-in";
import { startMediaServer } from "./server";

/** One `npm start` (Worker + transcoder) for all media test files: starting it costs more than most cases. */
export default async function setup(project: TestProject) {
  // Outputs over 5 MiB (the storage's smallest part) go to the Worker in parts (decision 017): one test makes one.
  process.env.TRANSCODER_PART_SIZE = String(5 * 1024 * 1024);
  // Speech recognition goes to a stand-in endpoint in the real response shape (npm start passes TRANSCRIBE_URL on).
  const recogniser = await startRecogniserStandIn();
  process.env.TRANSCRIBE_URL = recogniser.url;
  const { server, transcoderUrl } = await startMediaServer();
  project.provide("mediaUrl", server.url);
  project.provide("transcoderUrl", transcoderUrl);
  project.provide("recogniserUrl", recogniser.url);
  return async () => {
    await server.stop();
    recogniser.server.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    mediaUrl: string;
    transcoderUrl: string;
    recogniserUrl: string;
  }
}
