/**
 * A mixed load against `npm start` on 127.0.0.1 (docs/decisions/049): CONNECTIONS concurrent users (default 100)
 * browse groups, open assets, search, create share links and upload small files (WebDAV PUT) for SECONDS
 * (default 120), with autocannon. Each user sends a request every THINK seconds (default 2: a person reading what
 * the last click showed), so 100 users offer 50 requests a second (autocannon paces a connection to at most one
 * request a second, so it carries them on 50 connections: "conns" below). Prints each kind's time alone, then requests
 * per second and p50/p95/p99 per kind under the crowd, and every answer that was not 2xx or did not come within
 * autocannon's 10 s (the aim is none).
 *   npm run bench load            the 2-minute mix
 *   npm run bench load max        the same crowd without thinking (every user sends the next request as soon as
 *                                 the last is answered): the local server's capacity, where it saturates
 *   npm run bench load soak       10 minutes, printing the memory of the Worker (workerd) and the transcoder
 *                                 every 30 s
 * BENCH_SECONDS, BENCH_CONNECTIONS and BENCH_THINK change the length, the crowd and the pause.
 */
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import { benchAdmin, benchApi, percentile, startServer } from "./server.mjs";

const soak = process.argv[3] === "soak";
const saturate = process.argv[3] === "max";
const SECONDS = Number(process.env.BENCH_SECONDS ?? (soak ? 600 : 120));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const USERS = 10;
const GROUPS = 10;
const ASSETS_PER_GROUP = 20;
const THINK = Number(process.env.BENCH_THINK ?? 2);
/** Requests a second the crowd offers (autocannon paces each kind's connections to its share of it). */
const offered = saturate ? null : CONNECTIONS / THINK;
/** How the crowd splits across the kinds of work, out of 100. */
const mix = { browse: 35, open: 25, search: 20, share: 10, upload: 10 };

const server = await startServer();
const { post } = benchApi(server.url);
try {
  // Seed: a top group with GROUPS subgroups of small text files, and USERS users with read, update and acl on it.
  const adminBearer = (await post("/api/auth/login", null, benchAdmin)).bearer;
  const top = await post("/api/group/create", adminBearer, { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: "Нагрузка" });
  const basicAdmin = `Basic ${Buffer.from(`${benchAdmin.user}:${benchAdmin.passwd}`).toString("base64")}`;
  const groupIds = [];
  const assetIds = [];
  const words = ["отчёт", "интервью", "съёмка", "монтаж", "report", "trailer", "архив", "концерт"];
  for (let g = 0; g < GROUPS; g++) {
    const name = `Папка ${g}`;
    groupIds.push((await post("/api/group/create", adminBearer, { parent: top.group_id, group_name: name })).group_id);
    for (let a = 0; a < ASSETS_PER_GROUP; a++) {
      const file = `${words[(g + a) % words.length]}-${g}-${a}.txt`;
      const res = await fetch(
        `${server.url}/dav/${encodeURIComponent("Нагрузка")}/${encodeURIComponent(name)}/${encodeURIComponent(file)}`,
        {
          method: "PUT",
          headers: { Authorization: basicAdmin, "Content-Type": "text/plain" },
          body: `${file}: ${words.join(" ")}`,
        },
      );
      if (!res.ok) throw new Error(`seed PUT ${file}: ${res.status}`);
    }
  }
  for (const groupId of groupIds) {
    const page = await fetch(`${server.url}/api/group/members/${groupId}?skip=0&take=50`, {
      headers: { Authorization: `Bearer ${adminBearer}` },
    });
    for (const m of await page.json()) if (m.el_type === "asset") assetIds.push(m.el_id);
  }
  if (assetIds.length === 0) throw new Error("no assets listed after the seed");
  const users = [];
  for (let u = 0; u < USERS; u++) {
    const login = `load-${Date.now()}-${u}`;
    const user = await post("/api/user", adminBearer, {
      user_name: `Нагрузка ${u}`,
      user_login: login,
      user_passwd: "load-password-1",
      enabled: true,
    });
    await post("/api/user/acl", adminBearer, {
      subj: user.user_id,
      obj: top.group_id,
      acl: ["read", "update", "create", "acl", "download"],
    });
    const bearer = (await post("/api/auth/login", null, { user: login, passwd: "load-password-1" })).bearer;
    users.push({ bearer, basic: `Basic ${Buffer.from(`${login}:load-password-1`).toString("base64")}` });
  }
  console.log(
    `Seeded ${groupIds.length} groups, ${assetIds.length} assets, ${USERS} users; ${CONNECTIONS} users for ${SECONDS} s, ${offered ? `a request every ${THINK} s each (${offered} req/s offered)` : "without pause (saturation)"}`,
  );

  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const json = (bearer) => ({ Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" });
  let uploads = 0;
  /** One request of each kind, drawn afresh for every call (autocannon's setupRequest). */
  const kinds = {
    browse: () => ({ method: "GET", path: `/api/group/members/${pick(groupIds)}?skip=0&take=50`, headers: json(pick(users).bearer) }),
    open: () => ({ method: "GET", path: `/api/asset/info/${pick(assetIds)}`, headers: json(pick(users).bearer) }),
    search: () => ({
      method: "POST",
      path: "/api/search/query",
      headers: json(pick(users).bearer),
      body: JSON.stringify({ q: pick(words), take: 50 }),
    }),
    share: () => ({
      method: "POST",
      path: `/api/sl/create/${pick(assetIds)}`,
      headers: json(pick(users).bearer),
      body: JSON.stringify({ acl: ["view"] }),
    }),
    upload: () => ({
      method: "PUT",
      path: `/dav/${encodeURIComponent("Нагрузка")}/${encodeURIComponent(`Папка ${uploads % GROUPS}`)}/${encodeURIComponent(`load-${++uploads}.txt`)}`,
      headers: { Authorization: pick(users).basic, "Content-Type": "text/plain" },
      body: `load file ${uploads}`,
    }),
  };

  // Each kind alone first (one request at a time): the service time the crowd's figures are made of.
  console.log(`\n${"alone".padEnd(8)} ${"p50".padStart(9)} ${"p95".padStart(9)}`);
  for (const [kind, request] of Object.entries(kinds)) {
    const times = [];
    for (let i = 0; i < 25; i++) {
      const { method, path: p, headers, body } = request();
      const t = performance.now();
      const res = await fetch(server.url + p, { method, headers, body });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${kind} ${p}: ${res.status}`);
      if (i >= 5) times.push(performance.now() - t);
    }
    console.log(
      `${kind.padEnd(8)} ${`${percentile(times, 50).toFixed(1)} ms`.padStart(9)} ${`${percentile(times, 95).toFixed(1)} ms`.padStart(9)}`,
    );
  }

  const memory = [];
  const sampleMemory = () => {
    const rss = { workerd: 0, transcoder: 0 };
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== server.pid) continue;
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
        if (/workerd/.test(cmd)) rss.workerd += kb;
        else if (/transcoder/.test(cmd)) rss.transcoder += kb;
      } catch {} // ended meanwhile
    }
    memory.push({ t: memory.length * 30, ...rss });
  };
  sampleMemory();
  const sampler = soak ? setInterval(sampleMemory, 30_000) : null;

  /** Connection errors by their code and by kind, to print; and requests cut by the end of the run. */
  const errorKinds = new Map();
  const failures = new Map();
  let cut = 0;
  const endsAt = performance.now() + SECONDS * 1000;
  const runs = Object.entries(kinds).map(([kind, request]) => {
    const latencies = [];
    const statuses = new Map();
    const instance = autocannon({
      url: server.url,
      connections: Math.max(1, Math.round((CONNECTIONS * mix[kind]) / 100)),
      duration: SECONDS,
      ...(offered ? { overallRate: Math.max(1, Math.round((offered * mix[kind]) / 100)) } : {}),
      requests: [{ setupRequest: (req) => ({ ...req, ...request() }) }],
    });
    instance.on("reqError", (err) => {
      // autocannon drops the requests still in flight when the time is up: those are cut, not failed.
      if (performance.now() >= endsAt - 250) return void cut++;
      const text = String(err?.code ?? err?.message ?? err);
      if (process.env.BENCH_DEBUG) console.log(kind, text, ((performance.now() - endsAt) / 1000 + SECONDS).toFixed(1));
      errorKinds.set(text, (errorKinds.get(text) ?? 0) + 1);
      failures.set(kind, (failures.get(kind) ?? 0) + 1);
    });
    instance.on("response", (_client, status, _bytes, time) => {
      latencies.push(time);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    return new Promise((resolve, reject) =>
      instance.on("done", (result) => resolve({ kind, result, latencies, statuses })).on("error", reject),
    );
  });
  const results = await Promise.all(runs);
  if (sampler) {
    clearInterval(sampler);
    sampleMemory();
  }

  let total = 0;
  let failed = 0;
  console.log(
    `\n${"kind".padEnd(8)} ${"conns".padStart(5)} ${"req/s".padStart(8)} ${"p50".padStart(9)} ${"p95".padStart(9)} ${"p99".padStart(9)}  not 2xx`,
  );
  for (const { kind, result, latencies, statuses } of results) {
    const bad = [...statuses].filter(([s]) => s < 200 || s > 299);
    const errors = failures.get(kind) ?? 0; // connection errors and timeouts before the end
    const badCount = bad.reduce((n, [, c]) => n + c, 0) + errors;
    total += latencies.length;
    failed += badCount;
    const f = (p) => (latencies.length ? `${percentile(latencies, p).toFixed(1)} ms` : "—").padStart(9);
    const detail =
      bad.length || errors
        ? ` (${bad.map(([s, c]) => `${s}×${c}`).join(", ")}${errors ? ` errors×${errors}, of them timeouts×${result.timeouts}` : ""})`
        : "";
    console.log(
      `${kind.padEnd(8)} ${String(result.connections).padStart(5)} ${(latencies.length / SECONDS).toFixed(1).padStart(8)} ${f(50)} ${f(95)} ${f(99)}  ${badCount}${detail}`,
    );
  }
  console.log(
    `${"all".padEnd(8)} ${String(CONNECTIONS).padStart(5)} ${(total / SECONDS).toFixed(1).padStart(8)}  — ${total} requests, ${failed} not 2xx`,
  );
  console.log(`${cut} requests were in flight when the time was up (dropped by autocannon, not counted)`);
  if (errorKinds.size) console.log(`connection errors: ${[...errorKinds].map(([k, n]) => `${k}×${n}`).join(", ")}`);
  if (soak) {
    console.log("\nMemory (RSS, MiB) over time:");
    console.log(`${"s".padStart(5)} ${"workerd".padStart(9)} ${"transcoder".padStart(11)}`);
    for (const m of memory)
      console.log(
        `${String(m.t).padStart(5)} ${(m.workerd / 1024).toFixed(1).padStart(9)} ${(m.transcoder / 1024).toFixed(1).padStart(11)}`,
      );
  }
} finally {
  await server.stop();
}
