import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { offlineEnv } from "../../scripts/offline-env.mjs";

Object.assign(process.env, offlineEnv);
const root = path.resolve(__dirname, "../..");
/**
 * Files that need a runtime of their own: what happens once per isolate of the Worker (the first request, a log
 * written once), and the check that the Worker hashes at the production cost (the shared runtimes hash at the
 * fixtures' cost, cheap-passwords.ts). Error reporting, whose wrapper instruments the isolate for good, is tested
 * against `npm start` instead (tests/e2e-api/error-reporting.test.ts).
 */
const ownRuntime = ["tests/api/first-admin.test.ts", "tests/api/env-check.test.ts", "tests/api/password-cost.test.ts"];

/**
 * Every module the Worker imports is sent from Vite to workerd for each test file, with its source map inlined
 * (source and mappings, several times the code). For packages those maps only cost: without them a file's runtime
 * receives ~15 MB instead of ~42 MB. An empty map (`mappings: ""`) is kept as is by Vite and not inlined; Vite drops
 * a transform's map when the code comes back unchanged, hence the added newline.
 */
const dependenciesWithoutSourceMaps: Plugin = {
  name: "dependencies-without-source-maps",
  enforce: "post",
  transform: (code, id) => (id.includes("/node_modules/") ? { code: `${code}\n`, map: { mappings: "" } } : undefined),
};

// The real Worker (worker.ts, with the Remix build) in workerd, with local D1, R2 and Queues.
export default defineConfig(async () => ({
  plugins: [
    dependenciesWithoutSourceMaps,
    cloudflareTest({
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, "db/migrations")),
          JWT_SECRET: "test-secret-for-the-api-suite-only-0123456789",
          ADMIN_LOGIN: "admin",
          ADMIN_PASSWORD: "admin-test-password",
          // Automations call the local webhook receiver (webhook-receiver.setup.ts) and retry at once.
          WEBHOOK_ALLOW_PRIVATE: "true",
          UDWF_RETRY_BASE_SECONDS: "0",
        },
        // As `npm start` binds it (scripts/workerd.mjs): the public-only outbound service webhooks use when private
        // addresses are not allowed (tests/api/automations-outbound.test.ts turns that on per call).
        serviceBindings: { WEBHOOK_FETCH: { network: { allow: ["public"] } } },
      },
    }),
  ],
  test: {
    root,
    // A file's own runtime (a Miniflare, with the Worker's modules loaded again) cost more than its tests did: files
    // share a runtime instead, each starting from an emptied database and bucket (setup.ts). The few that need the
    // Worker's modules fresh (a first request, a log written once per isolate) keep a runtime of their own.
    // docs/decisions/071-api-suite-in-shared-runtimes.md
    projects: [
      {
        extends: true as const,
        test: {
          name: "shared",
          isolate: false,
          include: ["tests/api/**/*.test.ts"],
          exclude: ownRuntime,
          // After setup.ts (a project's setup files follow the root's).
          setupFiles: [path.join(root, "tests/api/cheap-passwords.ts")],
        },
      },
      { extends: true as const, test: { name: "own-runtime", include: ownRuntime } },
    ],
    // Some cases make thousands of rows through the API; on a busy 2-core machine that is more than 5 s.
    testTimeout: 30_000,
    // Two runtimes side by side, each running its files one after another: a file waits on workerd as much as it
    // computes. MAM_API_WORKERS=1 runs one (vitest's default on two cores).
    maxWorkers: Number(process.env.MAM_API_WORKERS ?? Math.max(2, availableParallelism() - 1)),
    setupFiles: [path.join(root, "tests/api/setup.ts")],
    globalSetup: [path.join(root, "tests/api/storage-s3.setup.ts"), path.join(root, "tests/api/webhook-receiver.setup.ts")],
    // The Worker logs one JSON line per request (functions/lib/request-line.ts): kept out of the test report.
    onConsoleLog: (log: string) => !log.startsWith('{"type":"request"'),
    // Remix's CommonJS packages have import cycles the workers module loader cannot resolve: pre-bundle them.
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime"] } } },
  },
}));
