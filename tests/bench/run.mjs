#!/usr/bin/env node
// `npm run bench <name>`: runs tests/bench/<name>.mjs (needs a build: `npm run build`). Prints figures; never fails on time.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const names = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && !["run.mjs", "server.mjs"].includes(f))
  .map((f) => f.slice(0, -4));
const name = process.argv[2];
if (!name || !names.includes(name)) {
  console.error(`Usage: npm run bench <${names.join("|")}>`);
  process.exit(2);
}
if (!existsSync(path.join(dir, "../../build/server/index.js"))) {
  console.error("No build yet: run `npm run build` first.");
  process.exit(2);
}
await import(pathToFileURL(path.join(dir, `${name}.mjs`)).href);
