#!/usr/bin/env node
/**
 * `npm start`: builds the front end, applies D1 migrations to the local data directory and runs the
 * Worker in workerd (scripts/workerd.mjs: Miniflare) with local D1, R2 and Queues on http://127.0.0.1:$PORT.
 *   PORT          listening port (default 8787)
 *   MAM_DATA_DIR  local data directory: D1, R2, queue state and the generated JWT secret (default ./.data)
 *   MAM_SKIP_BUILD=1  reuse an existing build/ (tests that already built)
 *   ADMIN_LOGIN / ADMIN_PASSWORD  the first admin on an empty database (password generated and printed if unset)
 *   SSO_PROVIDERS  single sign-on providers, JSON (README "Single sign-on"); passed to the Worker as is
 *   DEFAULT_QUOTA_BYTES  bytes a user may store unless an admin set their own quota; passed to the Worker as is
 *   UPLOAD_SERVERS / UPLOAD_APP_ORIGINS  other upload servers, and the apps that may upload here from another
 *                 origin (README "Upload servers"); passed to the Worker as is
 *   WOPI_CLIENT_URL  an office server speaking WOPI (README "Editing documents"); passed to the Worker as is
 *   SENTRY_DSN    where the Worker and the pages report errors (README "Metrics, logs and error reporting"); passed as is
 *   LIBSQL_URL / LIBSQL_AUTH_TOKEN  keep the metadata in a libSQL server instead of the local D1 (README
 *                 "libSQL (Turso) instead of D1"; migrate it first with `npm run db:migrate -- --libsql`)
 *   TRANSCODER_PORT  port of the transcoder started beside the Worker (default: a free one)
 *   TRANSCODER_URL   use a transcoder running elsewhere instead of starting one
 *   MAM_SEED_SQL  SQL run on the local database after the migrations, before the Worker starts (the browser
 *                 tests seed their admin with it: docs/decisions/030-test-infrastructure.md)
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pipeLines } from "./log-format.mjs";
import { withOfflineEnv } from "./offline-env.mjs";
import { patches, patchFile } from "./patch-miniflare.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Miniflare's local R2 speed-up (docs/decisions/019-local-r2-streams.md) and its log lines that cannot stall a queue,
// also here so an install without scripts cannot drop them; a Miniflare they no longer fit stops the start with the reason.
try {
  patchFile(patches.r2);
  patchFile(patches.logs);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
const port = process.env.PORT || "8787";
const dataDir = path.resolve(root, process.env.MAM_DATA_DIR || ".data");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = withOfflineEnv();

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...env, CI: "true" } });
  if (result.status !== 0) {
    console.error(`Failed: ${path.basename(cmd)} ${args.join(" ")}`);
    process.exit(result.status ?? 1);
  }
}

/** The JWT secret is generated once per data directory and never leaves it. */
function secretsFile() {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "secrets.env");
  if (!existsSync(file) || !readFileSync(file, "utf8").includes("JWT_SECRET=")) {
    writeFileSync(file, `JWT_SECRET=${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
  }
  // 32 random bytes (43 characters); the Worker refuses to serve with fewer than 32 bytes (functions/lib/keys.ts).
  const secret = /JWT_SECRET=(\S*)/.exec(readFileSync(file, "utf8"))?.[1] ?? "";
  if (Buffer.byteLength(secret) < 32) {
    console.error(`JWT_SECRET in ${file} is shorter than 32 bytes: replace it (README "Keys and their rotation").`);
    process.exit(1);
  }
  // The bearer the Worker sends the transcoder: only it may submit work there.
  if (!readFileSync(file, "utf8").includes("TRANSCODER_TOKEN="))
    appendFileSync(file, `TRANSCODER_TOKEN=${randomBytes(24).toString("base64url")}\n`);
  return file;
}

if (process.env.MAM_SKIP_BUILD !== "1" || !existsSync(path.join(root, "build/server/index.js"))) {
  run(bin("remix"), ["vite:build"]);
}
const envFile = secretsFile();
// scripts/workerd.mjs applies the migrations (and MAM_SEED_SQL) before the Worker serves.

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = /** @type {import("node:net").AddressInfo} */ (srv.address());
      srv.close(() => resolve(free));
    });
  });

// The transcoder (transcoder/server.mjs) on its own port, restarted if it dies; its journal lives in the data dir.
const transcoderToken = /TRANSCODER_TOKEN=(\S+)/.exec(readFileSync(envFile, "utf8"))?.[1] ?? "";
const external = process.env.TRANSCODER_URL;
const transcoderPort = process.env.TRANSCODER_PORT || String(await freePort());
/** @type {import("node:child_process").ChildProcess | null} */
let transcoder = null;
let stopping = false;
function startTranscoder() {
  const child = spawn(process.execPath, [path.join(root, "transcoder/server.mjs")], {
    cwd: root,
    // Its per-task JSON lines, readable (scripts/log-format.mjs).
    stdio: ["ignore", "pipe", "inherit"],
    // It fetches only what lies under the Worker's origin (transcoder/http.mjs).
    env: {
      ...process.env,
      TRANSCODER_PORT: transcoderPort,
      TRANSCODER_TOKEN: transcoderToken,
      TRANSCODER_STATE_DIR: path.join(dataDir, "transcoder"),
      TRANSCODER_ALLOWED_ORIGIN: `http://127.0.0.1:${port}`,
    },
  });
  transcoder = child;
  pipeLines(child.stdout, process.stdout);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`transcoder exited (${signal ?? code}); restarting in 1 s`);
    setTimeout(startTranscoder, 1000);
  });
}
if (!external) startTranscoder();
const transcoderUrl = external || `http://127.0.0.1:${transcoderPort}`;

const passedVars = [
  "ADMIN_LOGIN",
  "ADMIN_PASSWORD",
  "SSO_PROVIDERS",
  "DEFAULT_QUOTA_BYTES",
  "UPLOAD_SERVERS",
  "UPLOAD_APP_ORIGINS",
  "EMBEDDINGS_URL",
  "EMBEDDINGS_MODEL",
  "EMBEDDINGS_KEY",
  "CHAT_URL",
  "CHAT_MODEL",
  "CHAT_KEY",
  "TRANSCRIBE_URL",
  "TRANSCRIBE_MODEL",
  "TRANSCRIBE_KEY",
  "WOPI_CLIENT_URL",
  "SENTRY_DSN",
  "LIBSQL_URL",
  "LIBSQL_AUTH_TOKEN",
  "UDWF_SEND_PER_HOUR",
  "UDWF_SEND_TEAM",
]
  .filter((k) => process.env[k])
  .flatMap((k) => ["--var", `${k}:${process.env[k]}`]);
const server = spawn(
  process.execPath,
  [
    path.join(root, "scripts/workerd.mjs"),
    "--port",
    port,
    "--persist-to",
    dataDir,
    "--env-file",
    envFile,
    ...passedVars,
    "--var",
    `TRANSCODER_URL:${transcoderUrl}`,
    "--var",
    `PUBLIC_URL:http://127.0.0.1:${port}`,
    // Automations may call webhooks on this machine (functions/udwf/webhook.ts); production refuses private addresses.
    "--var",
    `WEBHOOK_ALLOW_PRIVATE:${process.env.WEBHOOK_ALLOW_PRIVATE ?? "true"}`,
  ],
  { cwd: root, stdio: "inherit", env },
);

const stop = (signal) => {
  stopping = true;
  transcoder?.kill("SIGTERM");
  server.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
server.on("exit", (code) => {
  stopping = true;
  transcoder?.kill("SIGTERM");
  process.exit(code ?? 0);
});

// The first API request creates the first admin, so do it now: a generated password prints at start.
const url = `http://127.0.0.1:${port}`;
for (let i = 0; i < 120; i++) {
  await new Promise((r) => setTimeout(r, 500));
  const ok = await fetch(`${url}/api/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) {
    console.log(`\nМедиа-архив is running at ${url} (data in ${dataDir}; transcoder ${transcoderUrl})\n`);
    break;
  }
}
