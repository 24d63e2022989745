/**
 * The global events list at scale (docs/decisions/043-events-list.md, 044): seeds COUNT events (default 5,000,000;
 * `npm run bench events 500000` for fewer) straight into the local D1 SQLite file before the Worker starts, then
 * prints p95 through the local Worker (HTTP, the admin's bearer) for the newest page and for page 1,000 by cursor,
 * without and with a kind filter. Aim: < 20 ms each.
 */
import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { benchAdmin, migratedDataDir, ms, percentile, startServer } from "./server.mjs";

const COUNT = Number(process.argv[3] ?? process.env.BENCH_EVENTS ?? 5_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const TAKE = 50;
const PAGE = 1000;
// Kinds as the product writes them; "share" (the filter) is one event in ten.
const kinds = [
  "asset.created",
  "asset.updated",
  "field.set",
  "group.updated",
  "asset.moved",
  "task.done",
  "asset.viewed",
  "user.signin",
  "tag.attached",
  "share.created",
];
const least = TAKE * PAGE * kinds.length;
if (!Number.isInteger(COUNT) || COUNT < least) throw new Error(`the count must be at least ${least}: page ${PAGE} of the filtered list`);
const { dataDir, file } = migratedDataDir("mam-bench-events-");
const db = createClient({ url: `file:${file}` });
const now = Math.floor(Date.now() / 1000);
const kindCase = `CASE i % ${kinds.length} ${kinds.map((k, n) => `WHEN ${n} THEN '${k}'`).join(" ")} END`;

const t0 = performance.now();
const CHUNK = 250_000;
for (let start = 0; start < COUNT; start += CHUNK) {
  const end = Math.min(COUNT, start + CHUNK);
  // One event a ~second apart up to now; entities among 10,000 asset ids; a small JSON payload.
  await db.execute(`INSERT INTO events (event_id, ctime, user_id, kind, entity_type, entity_id, data)
    WITH RECURSIVE n(i) AS (SELECT ${start} UNION ALL SELECT i + 1 FROM n WHERE i < ${end - 1})
    SELECT lower(hex(randomblob(16))), ${now - COUNT} + i, NULL, ${kindCase}, 'asset',
      'a55e7000-0000-4000-8000-' || printf('%012x', i % 10000), json_object('n', i) FROM n`);
}
await db.execute("ANALYZE");
const seedSeconds = (performance.now() - t0) / 1000;
// Page 1,000's cursor: the rowid just above its first row (the list pages by "rowid below the cursor").
const cursorOf = async (where) =>
  String((await db.execute(`SELECT rowid FROM events ${where} ORDER BY rowid DESC LIMIT 1 OFFSET ${(PAGE - 1) * TAKE - 1}`)).rows[0].rowid);
const cursors = { all: await cursorOf(""), share: await cursorOf("WHERE kind >= 'share.' AND kind < 'share/'") };
db.close();
console.log(`Seeded ${COUNT.toLocaleString("en")} events in ${seedSeconds.toFixed(1)} s`);

const server = await startServer({ dataDir });
try {
  const post = async (path, body, bearer) => {
    const res = await fetch(server.url + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { bearer } = await post("/api/auth/login", benchAdmin);
  // The floor: whoami costs the request path and the sign-in check, which every list call pays too.
  const floor = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await (await fetch(`${server.url}/api/auth/whoami`, { headers: { Authorization: `Bearer ${bearer}` } })).arrayBuffer();
    floor.push(performance.now() - t);
  }
  console.log(`${"whoami (auth only, for scale)".padEnd(38)} p50 ${ms(percentile(floor, 50))}  p95 ${ms(percentile(floor, 95))}`);
  /** @type {[label: string, body: Record<string, unknown>][]} */
  const cases = [
    ["first page", { take: TAKE }],
    [`page ${PAGE} by cursor`, { take: TAKE, cursor: cursors.all }],
    ['first page, kinds ["share"]', { take: TAKE, kinds: ["share"] }],
    [`page ${PAGE} by cursor, kinds ["share"]`, { take: TAKE, kinds: ["share"], cursor: cursors.share }],
  ];
  for (const [label, body] of cases) {
    const page = await post("/api/global-events/list", body, bearer);
    if (page.items.length !== TAKE) throw new Error(`${label}: ${page.items.length} items`);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await post("/api/global-events/list", body, bearer);
      times.push(performance.now() - t);
    }
    console.log(`${label.padEnd(38)} p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}  (${RUNS} runs)`);
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
