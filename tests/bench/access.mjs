/**
 * The permission engine at scale: 100,000 groups (depth up to 8), one group with 100,000 assets, a
 * user with 50 rules (grants, two group denies, one asset deny). Seeds the local D1 SQLite file
 * directly (batched INSERTs, a recursive CTE for the assets) before the Worker starts, then prints
 * p50/p95 through the local Worker (HTTP, the user's bearer, timed to the last byte as a browser takes
 * it; an open route and whoami first, for the cost of the request path and of the sign-in check) and
 * the Worker's queries on the file itself (@libsql/client) as the floor. Aims: every call p95 < 25 ms;
 * members' last page within 2x of the first. The calls run twice: on the local D1, then with LIBSQL_URL on a
 * libSQL server (sqld) holding the same data, and the two are printed side by side (`npm run bench access d1`
 * for D1 alone).
 */
import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { benchAdmin, countBytes, kib, migratedDataDir, ms, percentile, startServer, startSqld } from "./server.mjs";

const GROUPS = 100_000;
const ASSETS = 100_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const { dataDir, file } = migratedDataDir("mam-bench-access-");
const now = Math.floor(Date.now() / 1000);

const db = createClient({ url: `file:${file}` });

// ---- the tree: R; X (a 10,000-group branch, fan-out 9/10/10/10); branches of fan-out 3 down to depth 8.
const rows = [];
const uuid = () => crypto.randomUUID();
function add(parent, name) {
  const id = uuid();
  const g = { id, name, parent: parent?.id ?? null, path: `${parent?.path ?? "/"}${id}/`, depth: (parent?.depth ?? 0) + 1 };
  rows.push(g);
  return g;
}
const R = add(null, `Бенч ${now}`);
const X = add(R, "Ветка X");
for (let a = 0; a < 9; a++) {
  const ga = add(X, `x${a}`);
  for (let b = 0; b < 10; b++) {
    const gb = add(ga, `x${a}.${b}`);
    for (let c = 0; c < 10; c++) {
      const gc = add(gb, `x${a}.${b}.${c}`);
      for (let d = 0; d < 10; d++) add(gc, `x${a}.${b}.${c}.${d}`);
    }
  }
}
const branches = [];
function grow(parent, depth) {
  if (rows.length >= GROUPS || depth > 8) return;
  for (let i = 0; i < 3 && rows.length < GROUPS; i++) grow(add(parent, `${parent.name}.${i}`), depth + 1);
}
for (let k = 0; rows.length < GROUPS; k++) {
  const top = add(R, `ветка ${k}`);
  branches.push(top);
  grow(top, 3);
}
const deep = rows.filter((g) => g.depth === 8);
const M = deep[0]; // the group with 100,000 assets, at depth 8
const q = (s) => `'${String(s).replace(/'/g, "''")}'`;

const t0 = performance.now();
const stmts = [];
for (let i = 0; i < rows.length; i += 500) {
  const values = rows
    .slice(i, i + 500)
    .map(
      (g) =>
        `(${q(g.id)}, ${q(g.name)}, ${q(g.name.toLowerCase())}, ${g.parent ? q(g.parent) : "NULL"}, ${q(g.path)}, ${g.depth}, ${now}, ${now})`,
    );
  stmts.push(`INSERT INTO groups (group_id, group_name, name_key, parent_id, path, depth, ctime, mtime) VALUES ${values.join(",")}`);
}
const assetPrefix = "a55e7000-0000-4000-8000-";
const assetId = (n) => `'${assetPrefix}' || printf('%012x', ${n})`;
stmts.push(
  `INSERT INTO assets (asset_id, name, owner, creator, mimetype, ctime, mtime, atime)
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ASSETS})
   SELECT ${assetId("i")}, printf('Кадр %06d.jpg', i), 'bench', 'bench', 'image/jpeg', ${now} - ${ASSETS} + i, ${now}, ${now} FROM n`,
  `INSERT INTO group_members (group_id, el_id, el_type, ctime) SELECT ${q(M.id)}, asset_id, 'asset', ctime FROM assets WHERE owner = 'bench'`,
  `INSERT INTO versions (asset_id, version, desc, ctime) SELECT asset_id, 1, '', ctime FROM assets WHERE owner = 'bench'`,
  `INSERT INTO variants (variant_id, asset_id, version, storage_id, object_key, name, mime_type, variant_type, content_size, file_name, etag, ctime)
   SELECT 'deadbeef' || substr(asset_id, 9), asset_id, 1, '00000000-0000-0000-0000-000000000001', 'k/' || asset_id, 'initial', 'image/jpeg', 'initial', 1000, name, 'e', ctime FROM assets WHERE owner = 'bench'`,
);
// The search index's triggers queued every seeded row for indexing; the Worker would work that queue off after
// every write (1,000 rows at a time), which would land in the "after a change" figure. This bench measures the
// tree and the access checks, not search (the search bench does), so the queue is dropped.
stmts.push("DELETE FROM search_dirty");
await db.batch(stmts, "write");
await db.execute("ANALYZE");
console.log(
  `Seeded ${rows.length} groups (depth ≤ ${Math.max(...rows.map((g) => g.depth))}), ${ASSETS} assets in one group at depth ${M.depth}: ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
db.close();

// ---- the Worker, on the seeded data directory (as scripts/start.mjs runs it): first on the local D1, then on a
// libSQL server (sqld) holding a copy of the same file, users and rules included; `npm run bench access d1` runs
// only the first.
const stores = process.argv[3] === "d1" ? ["D1"] : ["D1", "libSQL"];
/** @type {Record<string, Record<string, { p50: number, p95: number }>>} */
const byStore = {};
let failed = false;
/** @type {Awaited<ReturnType<typeof setUpUser>> | null} */
let setUp = null;
for (const store of stores) {
  const sqld = store === "libSQL" ? await startSqld(file) : null;
  const server = await startServer({ dataDir, env: sqld ? { LIBSQL_URL: sqld.url } : {} });
  console.log(`\n${store}${sqld ? ` (sqld at ${sqld.url}, a copy of the D1 file)` : ""}`);
  try {
    setUp ??= await setUpUser(server.url);
    byStore[store] = await measure(server.url, setUp);
  } catch (err) {
    failed = true;
    console.error(err);
  } finally {
    await server.stop();
    await sqld?.stop();
  }
  if (failed) break;
}
if (failed) {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
if (byStore.libSQL) {
  console.log("\nD1 vs libSQL (p95, same machine, same data)");
  for (const [label, d1] of Object.entries(byStore.D1)) {
    const other = byStore.libSQL[label];
    console.log(
      `${label.padEnd(40)} D1 ${ms(d1.p95).padStart(9)}  libSQL ${ms(other.p95).padStart(9)}  (${(other.p95 / d1.p95).toFixed(2)}x)`,
    );
  }
}

/** JSON call to the server; an answer other than 2xx throws. */
async function call(url, p, bearer, init = {}) {
  const res = await fetch(url + p, {
    ...init,
    headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${p}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function signIn(url, user, passwd) {
  return (await call(url, "/api/auth/login", null, { method: "POST", body: JSON.stringify({ user, passwd }) })).bearer;
}

/** The bench user and its 50 rules, made through the API (so they are in the file the libSQL run copies). */
async function setUpUser(url) {
  const admin = await signIn(url, benchAdmin.user, benchAdmin.passwd);
  const login = `bench-${now}`;
  const user = await call(url, "/api/user", admin, {
    method: "POST",
    body: JSON.stringify({ user_name: "Бенч", user_login: login, user_passwd: "bench-password-1", enabled: true }),
  });
  // 50 rules: read on X and on M's branch; 45 more grants on other branches; two group denies elsewhere; one asset deny.
  const rule = (obj, acl) => call(url, "/api/user/acl", admin, { method: "POST", body: JSON.stringify({ subj: user.user_id, obj, acl }) });
  const mBranch = branches.find((b) => M.path.startsWith(b.path));
  if (!mBranch) throw new Error("the tree has no branch above M");
  await rule(X.id, ["read"]);
  await rule(mBranch.id, ["read", "download"]);
  for (const b of branches.filter((b) => b !== mBranch).slice(0, 45)) await rule(b.id, ["read", "update"]);
  const denied = rows.filter((g) => g.depth === 6 && !M.path.startsWith(g.path) && g.path.startsWith(mBranch.path)).slice(0, 2);
  for (const g of denied) await rule(g.id, ["deny"]);
  await rule(`${assetPrefix}${"1".padStart(12, "0")}`, ["deny"]);
  return { login };
}

/** p50/p95 of every call through the Worker at `url`, printed and returned by label. */
async function measure(url, { login }) {
  const admin = await signIn(url, benchAdmin.user, benchAdmin.passwd);
  const bearer = await signIn(url, login, "bench-password-1");
  const deepAsset = `${assetPrefix}${(ASSETS - 7).toString(16).padStart(12, "0")}`;
  const lastSkip = Math.floor((ASSETS - 1) / 50) * 50;
  const xTree = await call(url, `/api/group/subtree/${X.id}`, bearer);
  let renames = 0;
  const renameElsewhere = () =>
    call(url, `/api/group/update/${deep[1].id}`, admin, {
      method: "PATCH",
      body: JSON.stringify({ group_name: `${deep[1].name} ${++renames}` }),
    });
  // The floor through the Worker: an open route (the HTTP path and routing alone), then whoami (plus the bearer check).
  /** @type {[label: string, path: string, options?: { headers?: Record<string, string>, before?: () => Promise<unknown>, client?: "fetch" }][]} */
  const calls = [
    ["version (no auth: the HTTP path)", "/api/version"],
    ["whoami (auth only, for scale)", "/api/auth/whoami"],
    ["members page 1 (take 50)", `/api/group/members/${M.id}?take=50`],
    [`members last page (skip ${lastSkip})`, `/api/group/members/${M.id}?skip=${lastSkip}&take=50`],
    ["acl-roots", "/api/group/acl-roots"],
    ["subtree of the 10,000-group branch", `/api/group/subtree/${X.id}`],
    // Served from the isolate while the tree is unchanged (functions/lib/tree-answers.ts); here, the first answer
    // after each change: a group outside the branch is renamed before every call.
    ["  the same, after a change to the tree", `/api/group/subtree/${X.id}`, { before: renameElsewhere }],
    // The same answer decoded by Node's fetch, and asked for uncompressed.
    ["  the same, decoded by Node's fetch", `/api/group/subtree/${X.id}`, { client: "fetch" }],
    ["  the same, Accept-Encoding: identity", `/api/group/subtree/${X.id}`, { headers: { "Accept-Encoding": "identity" } }],
    ["subtree page 1 (take 1000)", `/api/group/subtree/${X.id}?take=1000`],
    ["subtree last page (take 1000, after)", `/api/group/subtree/${X.id}?take=1000&after=${xTree.at(-1001).group_id}`],
    ["entity-access on a deep asset", `/api/auth/entity-access/${deepAsset}`],
  ];
  // Timed to the last byte with countBytes and a browser's Accept-Encoding, so compressed answers stay as sent,
  // as a browser's network stack takes them; every answer was decoded and checked once by `call`.
  const asBrowser = { Authorization: `Bearer ${bearer}`, "Accept-Encoding": "gzip, deflate, br, zstd" };
  /** @type {Record<string, { p50: number, p95: number }>} */
  const results = {};
  for (const [label, p, { headers, before, client } = {}] of calls) {
    const first = await call(url, p, bearer);
    const size = Array.isArray(first) ? `${first.length} rows` : "object";
    const times = [];
    let sent = 0;
    for (let i = 0; i < RUNS + 5; i++) {
      await before?.();
      const t = performance.now();
      if (client === "fetch") await (await fetch(url + p, { headers: { Authorization: `Bearer ${bearer}` } })).arrayBuffer();
      else {
        const res = await countBytes(url + p, { ...asBrowser, ...headers });
        if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
        sent = res.bytes;
      }
      if (i >= 5) times.push(performance.now() - t);
    }
    results[label] = { p50: percentile(times, 50), p95: percentile(times, 95) };
    const bytes = sent ? `, ${kib(sent)} sent` : "";
    console.log(`${label.padEnd(40)} p50 ${ms(results[label].p50)}  p95 ${ms(results[label].p95)}  (${size}${bytes})`);
  }
  const p1 = results["members page 1 (take 50)"].p95;
  const last = results[`members last page (skip ${lastSkip})`].p95;
  console.log(`last page / first page (p95): ${(last / p1).toFixed(2)}x (aim ≤ 2x)`);
  return results;
}

// ---- the floor: the Worker's own queries on the SQLite file, no Worker, no HTTP
const floor = createClient({ url: `file:${file}` });
// A page of M's assets as functions/groups/asset-members.ts reads it: a deep page from the nearer end, backwards.
const page = (skip) => {
  const fromEnd = ASSETS - skip - 50 < skip;
  const [offset, limit, dir] = fromEnd ? [Math.max(0, ASSETS - skip - 50), Math.min(50, ASSETS - skip), "DESC"] : [skip, 50, "ASC"];
  return `SELECT a.asset_id, a.name, a.mimetype, a.ctime,
  (SELECT max(v.version) FROM versions v WHERE v.asset_id = a.asset_id) AS ver,
  (SELECT json_array(x.variant_id, x.content_size) FROM variants x WHERE x.asset_id = a.asset_id ORDER BY x.version DESC LIMIT 1) AS latest
  FROM (SELECT el_id, ctime FROM group_members WHERE group_id = ${q(M.id)} AND el_type = 'asset' ORDER BY ctime ${dir}, el_id ${dir} LIMIT ${limit} OFFSET ${offset}) p
  JOIN assets a ON a.asset_id = p.el_id ORDER BY p.ctime ${dir}, p.el_id ${dir}`;
};
for (const [label, skip] of /** @type {[string, number][]} */ ([
  ["floor: members page 1 on the file", 0],
  ["floor: members last page on the file", Math.floor((ASSETS - 1) / 50) * 50],
])) {
  const times = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const t = performance.now();
    await floor.execute(page(skip));
    if (i >= 5) times.push(performance.now() - t);
  }
  console.log(`${label.padEnd(40)} p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}`);
}
// The whole subtree as functions/groups/tree.ts asks for it: the JSON text built by SQLite over the covering path index.
const sub = `SELECT json_group_array(json_object('group_id', group_id, 'group_name', group_name, 'parent_id', parent_id, 'depth', depth)) FROM
  (SELECT group_id, group_name, parent_id, depth FROM groups WHERE path >= ${q(X.path)} AND path < ${q(`${X.path.slice(0, -1)}0`)} AND group_id <> ${q(X.id)} AND deleted_at IS NULL ORDER BY path)`;
const subTimes = [];
for (let i = 0; i < 25; i++) {
  const t = performance.now();
  await floor.execute(sub);
  if (i >= 5) subTimes.push(performance.now() - t);
}
console.log(`${"floor: subtree of X on the file".padEnd(40)} p50 ${ms(percentile(subTimes, 50))}  p95 ${ms(percentile(subTimes, 95))}`);
floor.close();
if (process.env.BENCH_KEEP) console.log(`kept ${file} (M ${M.id}, X ${X.id})`);
else rmSync(dataDir, { recursive: true, force: true });
