/**
 * Tags at scale: list-by-filter over 50,000 tags (POST /api/tags/list-by-filter, take 20). A prefix is
 * one range of the unique name_key index (aim p95 < 10 ms through the Worker); a substring with no
 * prefix match scans that index. Seeds the local D1 SQLite file directly before the Worker starts,
 * then times the calls through the local Worker (HTTP, the admin's bearer) and the same query on the
 * file (@libsql/client) as the floor.
 *
 * `npm run bench metadata-tags` runs it alone; the metadata bench calls seedTags() on its own file and
 * timeTags() against its own server instead.
 */
import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { benchAdmin, migratedDataDir, ms, percentile, startServer } from "./server.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const ROOTS = [
  "кошки",
  "собаки",
  "природа",
  "город",
  "море",
  "лес",
  "горы",
  "река",
  "зима",
  "лето",
  "ночь",
  "утро",
  "свадьба",
  "концерт",
  "интервью",
  "репортаж",
  "спорт",
  "футбол",
  "хоккей",
  "театр",
  "музей",
  "выставка",
  "портрет",
  "пейзаж",
  "архитектура",
  "ёлка",
  "праздник",
  "семья",
  "дети",
  "школа",
];
const PREFIXES = [
  "ко",
  "соб",
  "при",
  "го",
  "мо",
  "ле",
  "ре",
  "зи",
  "ёл",
  "ел",
  "пра",
  "спо",
  "фу",
  "ин",
  "ар",
  "се",
  "шк",
  "те",
  "му",
  "вы",
];
const q = (s) => `'${String(s).replace(/'/g, "''")}'`;

/** functions/tags/name-key.ts, for the seed (this file cannot import TypeScript). */
const nameKey = (name) => name.normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("ru").replace(/ё/g, "е");

/** Inserts `count` distinct tags ("Кошки 123", …) into the D1 file through `db` (@libsql/client). */
export async function seedTags(db, count = 50_000) {
  const now = Math.floor(Date.now() / 1000);
  const stmts = [];
  for (let i = 0; i < count; i += 500) {
    const values = [];
    for (let j = i; j < Math.min(count, i + 500); j++) {
      const root = ROOTS[j % ROOTS.length];
      const name = `${root[0].toUpperCase()}${root.slice(1)} ${Math.floor(j / ROOTS.length)}`;
      values.push(`(${q(crypto.randomUUID())}, ${q(name)}, ${q(nameKey(name))}, NULL, ${now}, ${now})`);
    }
    stmts.push(`INSERT INTO tags (tag_id, tag_name, name_key, creator, ctime, mtime) VALUES ${values.join(",")}`);
  }
  await db.batch([...stmts, "ANALYZE"], "write");
}

async function timed(label, fn) {
  const times = [];
  for (let i = 0; i < RUNS + 10; i++) {
    const t = performance.now();
    await fn(i);
    if (i >= 10) times.push(performance.now() - t);
  }
  console.log(`${label.padEnd(52)} p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}`);
  return percentile(times, 95);
}

/** Times list-by-filter through the Worker at `url` (as `bearer`) and, with `file`, the prefix query on the SQLite file. */
export async function timeTags({ url, bearer, file }) {
  const filter = async (body) => {
    const res = await fetch(`${url}/api/tags/list-by-filter`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
    const list = await res.json();
    if (!res.ok) throw new Error(`list-by-filter: ${res.status} ${JSON.stringify(list)}`);
    return list;
  };
  const sample = await filter({ q: "Кош", skip: 0, take: 20 });
  if (sample.length !== 20) throw new Error(`expected a full page for "Кош", got ${sample.length}`);
  // The request path alone, for scale: an open route, then the bearer check.
  await timed("version (no auth: the HTTP path)", () => fetch(`${url}/api/version`).then((r) => r.arrayBuffer()));
  await timed("whoami (auth only)", () =>
    fetch(`${url}/api/auth/whoami`, { headers: { Authorization: `Bearer ${bearer}` } }).then((r) => r.arrayBuffer()),
  );
  const p95 = await timed("tags list-by-filter, prefix (take 20)", (i) => filter({ q: PREFIXES[i % PREFIXES.length], skip: 0, take: 20 }));
  console.log(`  aim p95 < 10 ms: ${p95 < 10 ? "met" : "not met"}`);
  await timed("tags list-by-filter, prefix, page 10 (skip 180)", (i) => filter({ q: PREFIXES[i % PREFIXES.length], skip: 180, take: 20 }));
  await timed("tags list-by-filter, substring only (index scan)", (i) => filter({ q: ` ${100 + (i % 50)}`, skip: 0, take: 20 }));
  if (!file) return;
  const floor = createClient({ url: `file:${file}` });
  await timed("floor: the prefix query on the file", (i) => {
    const key = nameKey(PREFIXES[i % PREFIXES.length]);
    const end = [...key].slice(0, -1).join("") + String.fromCodePoint(key.codePointAt(key.length - 1) + 1);
    return floor.execute({
      sql: "SELECT tag_id, tag_name FROM tags WHERE name_key >= ? AND name_key < ? ORDER BY name_key LIMIT 20",
      args: [key, end],
    });
  });
  floor.close();
}

/** Alone: a fresh data directory with 50,000 tags, the Worker on it, the figures, then everything removed. */
export async function benchTags(count = 50_000) {
  const { dataDir, file } = migratedDataDir("mam-bench-tags-");
  const db = createClient({ url: `file:${file}` });
  const t0 = performance.now();
  await seedTags(db, count);
  db.close();
  console.log(`Seeded ${count} tags: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const server = await startServer({ dataDir });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(benchAdmin),
    });
    const { bearer } = await login.json();
    await timeTags({ url: server.url, bearer, file });
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "metadata-tags") await benchTags();
