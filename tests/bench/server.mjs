/**
 * Starts the product as `npm start` does (scripts/start.mjs) on a free port with a fresh data
 * directory, for benchmarks; stop() ends it by PID (its whole process group).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const benchAdmin = { user: "admin", passwd: "bench-admin-password" };

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

export async function startServer({ skipBuild = true } = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "mam-bench-"));
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      MAM_DATA_DIR: dataDir,
      MAM_SKIP_BUILD: skipBuild ? "1" : "0",
      ADMIN_LOGIN: benchAdmin.user,
      ADMIN_PASSWORD: benchAdmin.passwd,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error("the server exited during start");
    await new Promise((r) => setTimeout(r, 500));
  }
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, dataDir, stop };
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (n) => `${n.toFixed(1)} ms`;
export const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
