/**
 * The Worker's bundle for the local runtime: what `wrangler deploy --dry-run` makes, so what runs is what would be
 * deployed. A bundle costs a wrangler command (~7 s of CPU, ~6 s of wall time), and tests start servers ten times
 * a run, so the last one is kept in .wrangler/worker-bundle/ and used again while every file esbuild read for it
 * (the inputs its metafile lists), wrangler.toml and package-lock.json hash as they did.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withOfflineEnv } from "./offline-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDir = path.join(root, ".wrangler", "worker-bundle");
const always = ["wrangler.toml", "package-lock.json"];

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const hashOf = (file) => {
  try {
    return sha256(readFileSync(path.join(root, file)));
  } catch {
    return "absent";
  }
};

/** The kept bundle's code when nothing it was made from changed since, else null. */
function kept() {
  try {
    const record = JSON.parse(readFileSync(path.join(cacheDir, "bundle.json"), "utf8"));
    if (!Object.entries(record.inputs).every(([file, hash]) => hashOf(file) === hash)) return null;
    const code = readFileSync(path.join(cacheDir, "worker.js"));
    // Two servers starting at once may both write the cache: the record names the code it was written with.
    return sha256(code) === record.worker ? code : null;
  } catch {
    return null;
  }
}

/** Bundles into `outDir` (a directory of this server's own) and keeps the result; returns the code. */
function bundle(outDir) {
  const metafile = path.join(outDir, "bundle-meta.json");
  const made = spawnSync(
    path.join(root, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", outDir, "--metafile", metafile],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: withOfflineEnv() },
  );
  if (made.status !== 0) {
    console.error("Failed: wrangler deploy --dry-run (bundling the Worker)");
    process.exit(made.status ?? 1);
  }
  const code = readFileSync(path.join(outDir, "worker.js"));
  const files = [...Object.keys(JSON.parse(readFileSync(metafile, "utf8")).inputs), ...always];
  const record = { worker: sha256(code), inputs: Object.fromEntries(files.map((file) => [file, hashOf(file)])) };
  mkdirSync(cacheDir, { recursive: true });
  // Each file is replaced whole (a rename), so a reader sees an old or a new one, never half of one.
  const tmp = `.${process.pid}.tmp`;
  writeFileSync(path.join(cacheDir, `worker.js${tmp}`), code);
  renameSync(path.join(cacheDir, `worker.js${tmp}`), path.join(cacheDir, "worker.js"));
  writeFileSync(path.join(cacheDir, `bundle.json${tmp}`), JSON.stringify(record));
  renameSync(path.join(cacheDir, `bundle.json${tmp}`), path.join(cacheDir, "bundle.json"));
  return code;
}

/** The Worker's code, bundled now into `outDir` or kept from an earlier start. */
export function workerCode(outDir) {
  const code = existsSync(path.join(cacheDir, "bundle.json")) ? kept() : null;
  return code ?? bundle(outDir);
}
