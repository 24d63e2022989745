/**
 * Figures for the platform foundation: Worker bundle size (gzipped), JavaScript shipped for /login
 * and /mam (gzipped), and sign-in latency over 50 sequential sign-ins against `npm start`.
 * Aims: bundle < 1 MiB gz, /login JS < 150 KB gz, login p95 < 300 ms.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { withOfflineEnv } from "../../scripts/offline-env.mjs";
import { benchAdmin, kib, ms, percentile, startServer } from "./server.mjs";

const outdir = ".bench/dry-run";
execFileSync("node_modules/.bin/wrangler", ["deploy", "--dry-run", "--outdir", outdir], { env: withOfflineEnv(), stdio: "ignore" });
const bundleFiles = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
const bundleRaw = bundleFiles.reduce((n, f) => n + statSync(path.join(outdir, f)).size, 0);
const bundleGz = bundleFiles.reduce((n, f) => n + gzipSync(readFileSync(path.join(outdir, f))).length, 0);
console.log(`Worker bundle: ${kib(bundleRaw)} raw, ${kib(bundleGz)} gzipped (aim < 1024 KiB)`);

const server = await startServer();
try {
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
} finally {
  server.stop();
}
