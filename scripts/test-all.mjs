#!/usr/bin/env node
/**
 * `npm test`: every layer of tests, one after the other, stopping at the first that fails, and the time of each.
 *
 * A first step checks the system tools the layers drive (Chromium for the browser tests, litmus, rclone and FUSE
 * for WebDAV). As root with apt it installs what is missing, as .ci/run does; otherwise it names the packages and
 * stops within seconds, rather than failing twenty minutes in. ffmpeg is not among them: without it the transcoder
 * and the media tests use the binaries of @ffmpeg-installer/@ffprobe-installer (transcoder/tools.mjs).
 *
 *   node scripts/test-all.mjs            all layers
 *   node scripts/test-all.mjs api e2e    only these (by the names below)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Each layer: its name here, the npm script that runs it, and what it needs from the system. */
const layers = [
  { name: "check", script: "check" },
  { name: "build", script: "build" },
  { name: "unit", script: "test:unit" },
  { name: "api", script: "test:api" },
  { name: "libsql", script: "test:libsql" },
  // The build above is the one the browser tests run against: the server they start does not build again.
  { name: "e2e", script: "test:e2e", env: { MAM_SKIP_BUILD: "1" }, needs: ["chromium"] },
  { name: "e2e-api", script: "test:e2e-api" },
  { name: "media", script: "test:media" },
  { name: "dav", script: "test:dav", needs: ["litmus", "rclone", "fuse3"] },
  { name: "faults", script: "test:faults" },
  { name: "deploy", script: "check:deploy" },
];

/** Debian package → how to tell it is there. The browser tests launch /usr/bin/chromium (playwright.config.ts). */
const tools = {
  chromium: () => existsSync("/usr/bin/chromium"),
  litmus: () => onPath("litmus"),
  rclone: () => onPath("rclone"),
  fuse3: () => onPath("fusermount3"),
};

function onPath(name) {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, name)));
}

function ensureTools(wanted) {
  const missing = [...new Set(wanted.flatMap((layer) => layer.needs ?? []))].filter((pkg) => !tools[pkg]());
  if (missing.length === 0) return;
  const canInstall = process.getuid?.() === 0 && onPath("apt-get");
  if (!canInstall) {
    console.error(`npm test needs system packages that are missing: ${missing.join(", ")}`);
    console.error(`Install them (Debian/Ubuntu): sudo apt-get install -y ${missing.join(" ")}`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(", ")} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", ...missing]]) {
    if (spawnSync("apt-get", args, { stdio: "inherit", env }).status !== 0) {
      console.error(`apt-get ${args[0]} failed; install by hand: apt-get install -y ${missing.join(" ")}`);
      process.exit(1);
    }
  }
}

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !layers.some((layer) => layer.name === name));
if (unknown.length > 0) {
  console.error(`Unknown layer(s): ${unknown.join(", ")}; the layers are: ${layers.map((l) => l.name).join(", ")}`);
  process.exit(2);
}
const chosen = asked.length > 0 ? layers.filter((layer) => asked.includes(layer.name)) : layers;
ensureTools(chosen);

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * Lines worth repeating at the end: what failed or was flaky, and the first error line of each failure. A CI log
 * often keeps only its tail, and a failure printed twenty minutes earlier would be cut from it.
 */
const notable = [
  /^\s*\d+ (failed|flaky|interrupted)\b/, // Playwright's summary counts
  /^\s{4}\[chromium\] › /, // …and the tests under them
  /^\s*(FAIL|×)\s/, // Vitest's failed file or test
];
/** A failure's own report starts with one of these; its first error line follows within a few lines. */
const failureHeading = [/^\s*\d+\) \[chromium\] › /, /^\s*FAIL\s/];
const errorLine = /^\s*(Error|TypeError|AssertionError|TimeoutError)\b.*:/;
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Runs one npm script with its output passed through as it comes, and keeps its notable lines (at most 60). */
function runLayer(layer) {
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", layer.script], { cwd: root, env: { ...process.env, ...layer.env } });
    const kept = [];
    let linesSinceHeading = Number.POSITIVE_INFINITY;
    const scan = (stream, out) => {
      let partial = "";
      stream.on("data", (chunk) => {
        out.write(chunk);
        const lines = (partial + chunk.toString("utf8")).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          const plain = line.replace(ansi, "").trimEnd();
          linesSinceHeading += 1;
          if (failureHeading.some((re) => re.test(plain))) linesSinceHeading = 0;
          const wanted =
            notable.some((re) => re.test(plain)) || linesSinceHeading === 0 || (linesSinceHeading < 15 && errorLine.test(plain));
          if (wanted && kept.length < 60 && !kept.includes(plain)) kept.push(plain);
        }
      });
    };
    scan(child.stdout, process.stdout);
    scan(child.stderr, process.stderr);
    child.on("close", (code) => resolve({ status: code ?? 1, kept }));
  });
}

const times = [];
const failed = [];
const reports = [];
// Every layer runs even after one fails (the build aside, which the rest need), so one run reports every failure.
for (const layer of chosen) {
  const started = Date.now();
  const result = await runLayer(layer);
  times.push({ layer: layer.name, seconds: Math.round((Date.now() - started) / 1000), ok: result.status === 0 });
  if (result.kept.length > 0) reports.push({ layer: layer.name, lines: result.kept });
  if (result.status !== 0) {
    failed.push(layer.name);
    if (layer.name === "build") break;
  }
}

if (reports.length > 0) {
  console.log("\nFailed or flaky, by layer (the full reports are above):");
  for (const report of reports) {
    console.log(`  ${report.layer}:`);
    for (const line of report.lines) console.log(`    ${line.trim().slice(0, 300)}`);
  }
}
console.log("\nTime per layer:");
for (const t of times) console.log(`  ${t.layer.padEnd(8)} ${String(t.seconds).padStart(5)} s${t.ok ? "" : "  FAILED"}`);
console.log(`  ${"total".padEnd(8)} ${String(times.reduce((sum, t) => sum + t.seconds, 0)).padStart(5)} s`);
if (failed.length > 0) {
  console.error(`npm test: failed layer(s): ${failed.join(", ")}`);
  process.exit(1);
}
