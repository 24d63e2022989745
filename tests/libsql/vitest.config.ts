import path from "node:path";
import { defineConfig } from "vitest/config";
import { offlineEnv } from "../../scripts/offline-env.mjs";

Object.assign(process.env, offlineEnv);
const root = path.resolve(__dirname, "../..");

/**
 * The service-level API suites again, with libSQL as the metadata store (docs/decisions/049): the same test
 * files, run in Node against the Worker's API (functions/index.ts) with LIBSQL_URL on an embedded libSQL file
 * (the `libsql` package under @libsql/client) and the other bindings (R2, Queues) from wrangler's local
 * platform. Any SQL that behaves differently on libSQL fails here.
 */
export const libsqlSuites = [
  "access-engine",
  "groups",
  "groups-assets",
  "assets",
  "fields-templates",
  "fields-values",
  "fields-search",
  "tags-attach",
  "taxonomy-tree",
  "search-query",
  "search-frequent",
  "review-comments",
  "review-approval",
  "review-export",
  "review-automation",
  "review-cleanup",
];

export default defineConfig({
  root,
  resolve: {
    alias: {
      "cloudflare:test": path.join(root, "tests/libsql/cloudflare-test.ts"),
      // In Node the embedded database is a file: the Node build of the client opens it; the Worker's is the web one.
      "@libsql/client/web": "@libsql/client",
    },
  },
  test: {
    environment: "node",
    include: ["tests/libsql/*.test.ts", ...libsqlSuites.map((name) => `tests/api/${name}.test.ts`)],
    setupFiles: [path.join(root, "tests/api/setup.ts")],
    onConsoleLog: (log: string) => !log.startsWith('{"type":"request"'),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One platform (workerd for R2 and Queues) per file would load two cores: the files run one after another.
    fileParallelism: false,
    // One process, one platform and one database file for every file, each file starting from an emptied database
    // (tests/api/setup.ts): a platform and the migrations per file were half the layer's time.
    isolate: false,
  },
});
