import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { adminSeedSql } from "./admin-seed";
import { ssoProvidersJson } from "./sso-env";

/**
 * Browser tests against `npm start` (the real Worker in workerd) on a fresh data directory.
 * Chromium comes from the system: nothing is downloaded. Its headless shell (Debian's chromium-headless-shell, the
 * build Playwright itself runs headless tests in) took a quarter less CPU than the full browser in its headless mode
 * over the same five specs (80 vs 108 CPU s), so it is the one used; the full browser serves where only it is there.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const port = process.env.MAM_E2E_PORT ?? "8790";
// Set once in the main process; test workers inherit it instead of making their own directory.
process.env.MAM_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "mam-e2e-"));
process.env.MAM_E2E_ADMIN_PASSWORD ??= "E2e-admin-Passw0rd";
process.env.MAM_E2E_SEED_SQL ??= await adminSeedSql("admin", process.env.MAM_E2E_ADMIN_PASSWORD);

function browserExecutable() {
  if (process.env.MAM_E2E_CHROMIUM) return process.env.MAM_E2E_CHROMIUM;
  return ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => existsSync(file));
}

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  // Playwright's default is half the cores (one here); `npm test` asks for two (MAM_E2E_WORKERS, scripts/test-all.mjs).
  workers: process.env.MAM_E2E_WORKERS ? Number(process.env.MAM_E2E_WORKERS) : undefined,
  forbidOnly: !!process.env.CI,
  // One retry: a test that passes on its second run is reported as flaky in the list, not hidden, and a
  // connection the local runtime drops now and then (seen once in ~100 runs) does not fail the whole suite.
  retries: 1,
  reporter: [["list"]],
  // A test opens several screens, and on a shared 2-core machine (CI's) a screen of the local runtime takes 2 to 6 s
  // to show: tests of six to eight screens ran 23 to 31 s here, and 30 s ran out now and then.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: "ru-RU",
    // A trace is recorded on a failed test's retry only: recording one for every test (screencast frames, snapshots)
    // cost a third of the browser tests' CPU (three specs: 147 → 101 CPU s, 1.6 → 1.2 min).
    trace: "on-first-retry",
    launchOptions: {
      executablePath: browserExecutable(),
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  outputDir: path.join(root, "test-results/e2e"),
  webServer: {
    command: "node scripts/start.mjs",
    cwd: root,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: port,
      MAM_DATA_DIR: process.env.MAM_E2E_DATA_DIR,
      ADMIN_LOGIN: "admin",
      ADMIN_PASSWORD: process.env.MAM_E2E_ADMIN_PASSWORD,
      MAM_SEED_SQL: process.env.MAM_E2E_SEED_SQL,
      // The OpenID provider sso.spec.ts starts on 127.0.0.1 (MAM_E2E_OIDC_PORT, default 8891).
      SSO_PROVIDERS: ssoProvidersJson(),
      // A second upload server: this same Worker reached as another origin (localhost), and one that never answers.
      // The pages pick the Worker unless a test makes its ping slow (upload-servers.spec.ts).
      UPLOAD_SERVERS: JSON.stringify([
        { id: "second", url: `http://localhost:${port}/api/ul` },
        { id: "gone", url: "http://127.0.0.1:9/api/ul" },
      ]),
      UPLOAD_APP_ORIGINS: `http://127.0.0.1:${port}`,
    },
  },
});
