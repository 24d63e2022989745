import type { TestProject } from "vitest/node";
import { benchAdmin, startServer } from "../bench/server.mjs";

/** One `npm start` for the WebDAV client tests, stopped by PID at the end. */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide("davUrl", server.url);
  project.provide("davAdmin", { login: benchAdmin.user, password: benchAdmin.passwd });
  return () => server.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    davUrl: string;
    davAdmin: { login: string; password: string };
  }
}
