/**
 * Figures for the platform foundation: Worker bundle size (gzipped), JavaScript shipped for /login
 * and /mam (gzipped), sign-in latency over 50 sequential sign-ins against `npm start`, and the cost of a request:
 * requests per second (20 connections, 10 s each, alternating twice) of an open route, whoami (the sign-in check)
 * and a members page of 50 assets. Aims: bundle < 1 MiB gz, /login JS < 150 KB gz, login p95 < 300 ms.
 *
 * BENCH_BASELINE_DIR=<another checkout, installed and built> measures that checkout's server too, each route on
 * the two servers in turn: an A/B on the same machine at the same time, so its load falls on both alike.
 */
import { execFileSync } from "node:child_process";
import autocannon from "autocannon";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { withOfflineEnv } from "../../scripts/offline-env.mjs";
import { pathToFileURL } from "node:url";
import { benchAdmin, benchApi, kib, ms, percentile, startServer } from "./server.mjs";

/** The other checkout's own `npm start`, through its own bench helper (its start options may differ from ours). */
async function startBaseline(dir) {
  const other = await import(pathToFileURL(path.resolve(dir, "tests/bench/server.mjs")).href);
  // Its helper starts `scripts/start.mjs` in the current directory: that checkout's, for the time of the start.
  const here = process.cwd();
  process.chdir(path.resolve(dir));
  try {
    const started = await other.startServer();
    return { ...started, admin: other.benchAdmin };
  } finally {
    process.chdir(here);
  }
}

const outdir = ".bench/dry-run";
execFileSync("node_modules/.bin/wrangler", ["deploy", "--dry-run", "--outdir", outdir], { env: withOfflineEnv(), stdio: "ignore" });
const bundleFiles = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
const bundleRaw = bundleFiles.reduce((n, f) => n + statSync(path.join(outdir, f)).size, 0);
const bundleGz = bundleFiles.reduce((n, f) => n + gzipSync(readFileSync(path.join(outdir, f))).length, 0);
console.log(`Worker bundle: ${kib(bundleRaw)} raw, ${kib(bundleGz)} gzipped (aim < 1024 KiB)`);

const server = await startServer();
/** @type {Awaited<ReturnType<typeof startBaseline>> | null} */
let baseline = null;
try {
  if (process.env.BENCH_BASELINE_DIR) baseline = await startBaseline(process.env.BENCH_BASELINE_DIR);
  /** Every script the page's HTML loads (src and modulepreload), fetched and gzipped like a browser would receive them. */
  async function pageJs(route) {
    const html = await (await fetch(server.url + route)).text();
    const urls = new Set([...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1]));
    const inline = [...html.matchAll(/<script(?![^>]*src)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("");
    let gz = gzipSync(inline).length;
    for (const u of urls) gz += gzipSync(Buffer.from(await (await fetch(new URL(u, server.url))).arrayBuffer())).length;
    return { files: urls.size, gz };
  }
  for (const route of ["/login", "/mam"]) {
    const { files, gz } = await pageJs(route);
    console.log(`JavaScript for ${route}: ${files} files, ${kib(gz)} gzipped${route === "/login" ? " (aim < 150 KB)" : ""}`);
  }

  const times = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(benchAdmin),
    });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
    await res.arrayBuffer();
    times.push(performance.now() - t);
  }
  console.log(`Sign-in latency over 50: p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))} (aim p95 < 300 ms)`);

  // The cost of a request: throughput under 20 connections, each route twice in turn so a slow spell of the
  // machine does not fall on one of them only. Every request of the members page passes the sign-in check too.
  const targets = [{ name: "this checkout", url: server.url, admin: benchAdmin }];
  if (baseline) targets.push({ name: "baseline", url: baseline.url, admin: baseline.admin });
  for (const target of targets) target.routes = await requestRoutes(target);
  /** @type {Record<string, string[]>} */
  const rates = {};
  for (let round = 0; round < 2; round++) {
    for (let r = 0; r < targets[0].routes.length; r++) {
      for (const target of targets) {
        const [label, p] = target.routes[r];
        const result = await autocannon({
          url: target.url + p,
          headers: { Authorization: `Bearer ${target.bearer}` },
          connections: 20,
          duration: 10,
        });
        if (result.non2xx) throw new Error(`${p}: ${result.non2xx} answers that were not 2xx`);
        // Connections the local server dropped or timed out are counted, not failed on: a figure, not a test.
        const dropped = result.errors ? ` (${result.errors} connection errors)` : "";
        (rates[baseline ? `${label}, ${target.name}` : label] ??= []).push(`${Math.round(result.requests.average)}${dropped}`);
      }
    }
  }
  for (const [label, r] of Object.entries(rates))
    console.log(`${label.padEnd(baseline ? 40 : 24)} ${r.join(" / ")} req/s (20 connections, 10 s)`);
} finally {
  server.stop();
  baseline?.stop();
}

/** Signs in on a target and makes a group of 50 assets there: the three routes to time, with their paths. */
async function requestRoutes(target) {
  const { call, post } = benchApi(target.url);
  target.bearer = (await post("/api/auth/login", null, target.admin)).bearer;
  const { group_id } = await post("/api/group/create", target.bearer, {
    group_name: "Бенч запросов",
    parent: "ffffffff-ffff-ffff-ffff-ffffffffffff",
  });
  for (let i = 0; i < 50; i++)
    await post("/api/asset/create", target.bearer, { asset_name: `Файл ${i}.jpg`, asset_mime: "image/jpeg", in_group: group_id });
  if ((await call(`/api/group/members/${group_id}?take=50`, target.bearer)).length === 0) throw new Error("members page is empty");
  return [
    ["version (open route)", "/api/version"],
    ["whoami", "/api/auth/whoami"],
    ["members page (take 50)", `/api/group/members/${group_id}?take=50`],
  ];
}
