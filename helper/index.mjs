#!/usr/bin/env node
/**
 * `npm run helper` (or `npx mam-helper`): the disk helper on 127.0.0.1:18981.
 *   MAM_HELPER_ORIGINS  comma-separated app origins allowed to call it (default http://127.0.0.1:8787,http://localhost:8787),
 *                       or "origins" in ~/.config/mam-helper/config.json
 *   MAM_HELPER_PORT     another port (tests)
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { createHelper, defaultPort, helperVersion } from "./server.mjs";

const home = homedir();
const configFile = path.join(home, ".config", "mam-helper", "config.json");
const config = existsSync(configFile) ? JSON.parse(readFileSync(configFile, "utf8")) : {};
const origins = (process.env.MAM_HELPER_ORIGINS ?? config.origins?.join(",") ?? "http://127.0.0.1:8787,http://localhost:8787")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const helper = createHelper({ port: Number(process.env.MAM_HELPER_PORT ?? defaultPort), home, origins });
const port = await helper.listen();
console.log(`МАМ: помощник дисков ${helperVersion} слушает http://127.0.0.1:${port} (разрешены: ${origins.join(", ")})`);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => helper.close().then(() => process.exit(0)));
