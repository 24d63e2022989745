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
import { spawnSync } from "node:child_process";
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
const times = [];
const failed = [];
// Every layer runs even after one fails (the build aside, which the rest need), so one run reports every failure.
for (const layer of chosen) {
  const started = Date.now();
  const result = spawnSync(npm, ["run", layer.script], { cwd: root, stdio: "inherit", env: { ...process.env, ...layer.env } });
  times.push({ layer: layer.name, seconds: Math.round((Date.now() - started) / 1000), ok: result.status === 0 });
  if (result.status !== 0) {
    failed.push(layer.name);
    if (layer.name === "build") break;
  }
}

console.log("\nTime per layer:");
for (const t of times) console.log(`  ${t.layer.padEnd(8)} ${String(t.seconds).padStart(5)} s${t.ok ? "" : "  FAILED"}`);
console.log(`  ${"total".padEnd(8)} ${String(times.reduce((sum, t) => sum + t.seconds, 0)).padStart(5)} s`);
if (failed.length > 0) {
  console.error(`npm test: failed layer(s): ${failed.join(", ")}`);
  process.exit(1);
}
