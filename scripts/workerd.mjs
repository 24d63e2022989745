/**
 * Runs the Worker locally in workerd through Miniflare, with the bindings wrangler.toml declares (local D1,
 * R2, Queues, static assets) persisted under a data directory. `npm start` uses it instead of `wrangler dev`:
 * wrangler dev puts a second workerd (its proxy) in front of the Worker, which measured here as ~4 ms more per
 * request and a third of the streaming throughput (docs/decisions/018-local-runtime.md). The code that runs
 * is the bundle `wrangler deploy` would upload (its --dry-run output), so what is tested is what is deployed.
 *
 *   node scripts/workerd.mjs --port P --persist-to DIR --env-file FILE [--var NAME:VALUE ...]
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Log, LogLevel, Miniflare } from "miniflare";
import { pipeLines } from "./log-format.mjs";
import { Cron } from "croner";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { prepareLocalD1 } from "./local-d1.mjs";
import { workerCode } from "./worker-bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    port: { type: "string" },
    "persist-to": { type: "string" },
    "env-file": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
  },
});
const persistTo = args["persist-to"];
const envFile = args["env-file"];
if (!args.port || !persistTo || !envFile) {
  console.error("usage: node scripts/workerd.mjs --port P --persist-to DIR --env-file FILE [--var NAME:VALUE ...]");
  process.exit(2);
}

// Per data directory, so two local servers (a test run beside `npm start`) never share a bundle being written.
const bundleDir = path.join(path.resolve(persistTo), "bundle");
const code = workerCode(bundleDir);

/** KEY=VALUE lines (the data directory's secrets) and --var NAME:VALUE switches, as wrangler dev takes them. */
const secrets = Object.fromEntries(
  readFileSync(envFile, "utf8")
    .split("\n")
    .flatMap((line) => {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
      return m ? [[m[1], m[2]]] : [];
    }),
);
const vars = Object.fromEntries(args.var.map((v) => [v.slice(0, v.indexOf(":")), v.slice(v.indexOf(":") + 1)]));

const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
// Same layout as `wrangler dev --persist-to` and `wrangler d1 migrations apply --persist-to`.
const persistRoot = path.join(path.resolve(persistTo), "v3");
// The database is migrated (and seeded with MAM_SEED_SQL, for the browser tests) before the Worker takes requests.
const applied = await prepareLocalD1({ d1Databases: workerOptions.d1Databases, persistRoot, seedSql: process.env.MAM_SEED_SQL });
if (applied.length) console.log(`${applied.length} migration(s) applied, the last ${applied.at(-1)}`);
const mf = new Miniflare({
  host: "127.0.0.1",
  port: Number(args.port),
  defaultPersistRoot: persistRoot,
  // No request for Cloudflare's cf object: the built-in fallback keeps the machine offline.
  cf: false,
  // /cdn-cgi/handler/scheduled is kept as under wrangler dev; the crons below call the Worker directly.
  unsafeTriggerHandlers: true,
  log: new Log(LogLevel.INFO),
  logRequests: false,
  // MAM_INSPECTOR_PORT: the DevTools protocol of workerd on that port, for profiling the Worker (as wrangler dev's
  // --inspector-port).
  inspectorPort: process.env.MAM_INSPECTOR_PORT ? Number(process.env.MAM_INSPECTOR_PORT) : undefined,
  // The Worker's JSON log lines, readable (scripts/log-format.mjs).
  handleRuntimeStdio: (stdout, stderr) => {
    pipeLines(stdout, process.stdout);
    pipeLines(stderr, process.stderr);
  },
  workers: [
    {
      ...workerOptions,
      name: "mam",
      // One ES module, given whole: the bundle keeps a dynamic import() that Miniflare would refuse to walk.
      modulesRoot: bundleDir,
      modules: [{ type: "ESModule", path: path.join(bundleDir, "worker.js"), contents: code }],
      bindings: { ...workerOptions.bindings, ...secrets, ...vars },
      serviceBindings: {
        ...workerOptions.serviceBindings,
        // Automation webhooks connect through this service only (functions/udwf/webhook.ts): it reaches public
        // addresses and nothing else, whatever a name resolves to (decision 053). WEBHOOK_ALLOW_PRIVATE=true skips it.
        WEBHOOK_FETCH: { network: { allow: ["public"] } },
      },
    },
  ],
});
await mf.ready;
if (vars.WEBHOOK_ALLOW_PRIVATE === "true" || secrets.WEBHOOK_ALLOW_PRIVATE === "true")
  console.log(
    "Automation webhooks may reach this machine and its private networks (WEBHOOK_ALLOW_PRIVATE=true, for local receivers); WEBHOOK_ALLOW_PRIVATE=false sends them to public addresses only.",
  );

// The cron triggers of wrangler.toml, fired as Cloudflare fires them (Miniflare runs none by itself): housekeeping,
// the automations' schedules. LOCAL_CRONS (comma-separated, croner syntax, seconds allowed) replaces them, so a test
// need not wait five minutes for a schedule to come due.
const crons = process.env.LOCAL_CRONS
  ? process.env.LOCAL_CRONS.split(",")
  : (unstable_readConfig({ config: path.join(root, "wrangler.toml") }).triggers?.crons ?? []);
// The Worker itself, not the HTTP trigger: /cdn-cgi/handler/scheduled reaches the static-assets router in front
// of it, which has no scheduled handler and answers "exception".
const mam = await mf.getWorker("mam");
const cronJobs = crons.map(
  (expr) =>
    new Cron(expr.trim(), { protect: true, timezone: "UTC" }, async () => {
      const { outcome } = await mam.scheduled({ cron: expr.trim(), scheduledTime: new Date() }).catch((err) => ({ outcome: err.message }));
      if (outcome !== "ok") console.error(`cron ${expr}: ${outcome}`);
    }),
);

const stop = async () => {
  for (const job of cronJobs) job.stop();
  await mf.dispose().catch(() => {});
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
