#!/usr/bin/env node
/**
 * `npm test`: every layer of tests, and the time of each.
 *
 * The build first (the Worker the API tests load and the server the other layers start are made from it), then four
 * lanes side by side, each its layers one after another (docs/decisions/060, 071):
 * - the Worker's own suites: API first, then libSQL;
 * - check and unit, which fill the core the API suite leaves idle while it runs instead of competing with the browser
 *   tests later;
 * - the layers that drive `npm start` from outside (e2e-api, media, WebDAV, faults, deploy), which mostly wait (a
 *   transcode, a cron minute);
 * - the browser tests, the longest layer, with two workers, once the API suite has ended: the two take most of both
 *   cores, and side by side the API suite took 570 s instead of 170 and its queue waits ran out.
 * MAM_TEST_SERIAL=1 runs every layer alone, one after another, for per-layer figures.
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
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Each layer: its name here, the npm script that runs it, its lane (the lanes side by side, a lane's layers one
 * after another), the layer it waits for (`after`), and what it needs from the system.
 */
const layers = [
  { name: "build", script: "build", lane: "build" },
  { name: "api", script: "test:api", lane: "worker" },
  { name: "check", script: "check", lane: "checks" },
  { name: "unit", script: "test:unit", lane: "checks" },
  { name: "libsql", script: "test:libsql", lane: "worker" },
  { name: "e2e-api", script: "test:e2e-api", lane: "servers" },
  { name: "media", script: "test:media", lane: "servers" },
  { name: "dav", script: "test:dav", lane: "servers", needs: ["litmus", "rclone", "fuse3"] },
  { name: "faults", script: "test:faults", lane: "servers" },
  { name: "deploy", script: "check:deploy", lane: "servers" },
  // The build above is the one the browser tests run against: the server they start does not build again.
  {
    name: "e2e",
    script: "test:e2e",
    lane: "browser",
    after: "api",
    env: { MAM_SKIP_BUILD: "1", MAM_E2E_WORKERS: "2" },
    needs: ["chromium-headless-shell"],
  },
];
const serial = process.env.MAM_TEST_SERIAL === "1";

/**
 * Debian package → how to tell it is there. The browser tests launch Chromium's headless shell, the lighter build
 * (playwright.config.ts); the full browser alone also serves them, so it counts as having it.
 */
const tools = {
  "chromium-headless-shell": () => existsSync("/usr/bin/chromium-headless-shell") || existsSync("/usr/bin/chromium"),
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

/**
 * Runs one npm script with its output passed through as it comes, each line headed by the layer's name when lanes
 * run side by side, and keeps its notable lines (at most 60).
 */
function runLayer(layer, { labelled }) {
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", layer.script], { cwd: root, env: { ...process.env, ...layer.env } });
    const label = labelled ? `[${layer.name}] `.padEnd(10) : "";
    const kept = [];
    let linesSinceHeading = Number.POSITIVE_INFINITY;
    const scan = (stream, out) => {
      let partial = "";
      stream.on("data", (chunk) => {
        if (!labelled) out.write(chunk);
        const lines = (partial + chunk.toString("utf8")).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          if (labelled) out.write(`${label}${line}\n`);
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
    child.on("close", (code) => resolve({ status: code ?? 1, kept, cpuSeconds: reapedCpuSeconds() }));
  });
}

/**
 * CPU seconds of this process's children that have ended, from /proc/self/stat (Linux; elsewhere null): a child's
 * whole tree is added when it is reaped, so the growth since the last reading, taken as a layer's npm process closes,
 * is that layer's CPU time. Beside its wall time it says whether a layer computes or waits. Chromium's processes are
 * not reaped by the browser tests' runner, so they are not in the e2e figure (about 0.7 s of CPU a second, measured).
 */
let reapedBefore = readReaped();
function readReaped() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in clock ticks of 1/100 s
  } catch {
    return null;
  }
}
function reapedCpuSeconds() {
  const now = readReaped();
  const spent = now === null || reapedBefore === null ? null : now - reapedBefore;
  reapedBefore = now;
  return spent;
}

const times = [];
const failed = [];
const reports = [];

async function runLane(lane, options) {
  for (const layer of lane) {
    // A layer waits for the one it comes `after` when that one is part of this run (MAM_TEST_SERIAL runs them in order).
    if (!serial && layer.after && chosen.some((l) => l.name === layer.after)) await ended.get(layer.after)?.promise;
    const started = Date.now();
    const result = await runLayer(layer, options);
    const seconds = Math.round((Date.now() - started) / 1000);
    times.push({ layer: layer.name, seconds, cpuSeconds: result.cpuSeconds, ok: result.status === 0 });
    if (options.labelled) console.log(`[${layer.name}] ${result.status === 0 ? "passed" : "FAILED"} in ${seconds} s`);
    if (result.kept.length > 0) reports.push({ layer: layer.name, lines: result.kept });
    if (result.status !== 0) failed.push(layer.name);
    ended.get(layer.name)?.resolve();
  }
}

const runStarted = Date.now();
/** Each layer's end, for the layers that wait for it (`after`). @type {Map<string, { promise: Promise<void>, resolve: () => void }>} */
const ended = new Map();
for (const layer of layers) {
  let resolve = () => {};
  const promise = new Promise((r) => {
    resolve = () => r(undefined);
  });
  ended.set(layer.name, { promise, resolve });
}
// Every layer runs even after one fails (the build aside, which the rest need), so one run reports every failure.
const build = chosen.filter((layer) => layer.lane === "build");
if (build.length > 0) await runLane(build, { labelled: false });
if (!failed.includes("build")) {
  const lanes = new Map();
  for (const layer of chosen.filter((l) => l.lane !== "build")) {
    const lane = serial ? "serial" : layer.lane;
    lanes.set(lane, [...(lanes.get(lane) ?? []), layer]);
  }
  const labelled = lanes.size > 1;
  await Promise.all([...lanes.values()].map((lane) => runLane(lane, { labelled })));
}

if (reports.length > 0) {
  console.log("\nFailed or flaky, by layer (the full reports are above):");
  for (const report of reports) {
    console.log(`  ${report.layer}:`);
    for (const line of report.lines) console.log(`    ${line.trim().slice(0, 300)}`);
  }
}
console.log(`\nTime per layer${serial ? "" : " (lanes side by side: the layers' times add up to more than the whole)"}, and its CPU time:`);
for (const t of layers.map((layer) => times.find((time) => time.layer === layer.name)).filter(Boolean)) {
  const cpu = t.cpuSeconds === null ? "" : `  ${String(Math.round(t.cpuSeconds)).padStart(5)} s CPU`;
  console.log(`  ${t.layer.padEnd(8)} ${String(t.seconds).padStart(5)} s${cpu}${t.ok ? "" : "  FAILED"}`);
}
console.log(`  ${"whole".padEnd(8)} ${String(Math.round((Date.now() - runStarted) / 1000)).padStart(5)} s`);
if (failed.length > 0) {
  console.error(`npm test: failed layer(s): ${failed.join(", ")}`);
  process.exit(1);
}
