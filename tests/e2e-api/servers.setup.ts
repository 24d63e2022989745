/**
 * vitest globalSetup: `npm start` twice, side by side — on the local D1, and on a libSQL server (sqld) — each on its
 * own free port and fresh data directory, with the cron firing every 5 seconds (LOCAL_CRONS) so schedules come due
 * within the run. Private webhook receivers are allowed (the test's receiver is on this machine).
 */
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { migratedDataDir, startServer, startSqld } from "../bench/server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    servers: { store: "d1" | "libsql"; url: string }[];
  }
}

const env = { WEBHOOK_ALLOW_PRIVATE: "true", LOCAL_CRONS: "*/5 * * * * *" };

export default async function setup(project: TestProject) {
  const libsqlData = migratedDataDir("mam-e2e-api-libsql-");
  const sqld = await startSqld(libsqlData.file);
  const [d1, libsql] = await Promise.all([
    startServer({ env }),
    startServer({ dataDir: libsqlData.dataDir, env: { ...env, LIBSQL_URL: sqld.url } }),
  ]);
  project.provide("servers", [
    { store: "d1", url: d1.url },
    { store: "libsql", url: libsql.url },
  ]);
  return async () => {
    await Promise.all([d1.stop(), libsql.stop()]);
    await sqld.stop();
    rmSync(libsqlData.dataDir, { recursive: true, force: true });
  };
}
