import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The flows a user relies on that cross the queue, the cron or the transcoder, driven over HTTP against `npm start`
 * as a client drives it (docs/decisions/054): once on the local D1 and once with LIBSQL_URL at a local sqld. The two
 * servers start once (servers.setup.ts); the files run one after another against both.
 */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    environment: "node",
    include: ["tests/e2e-api/**/*.test.ts"],
    globalSetup: ["tests/e2e-api/servers.setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    // One retry, reported in the summary: a flow across two live servers on a loaded machine may lose a connection.
    retry: 1,
  },
});
