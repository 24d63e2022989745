#!/usr/bin/env node
// Runs a command with the offline switches set: `node scripts/offline.mjs wrangler deploy --dry-run`.
import { spawnSync } from "node:child_process";
import { withOfflineEnv } from "./offline-env.mjs";

const [cmd, ...args] = process.argv.slice(2);
const result = spawnSync(cmd, args, { stdio: "inherit", env: withOfflineEnv(), shell: false });
process.exit(result.status ?? 1);
