/**
 * Metadata at scale: 100,000 assets in one group, each with 10 field values (1,000,000 rows; one template
 * time-coded). Seeds the local D1 SQLite file directly (INSERT … SELECT over a recursive CTE) before the
 * Worker starts, then runs every section in tests/bench/metadata/*.mjs (fields, and any other metadata:
 * a section is one more file exporting `default async (ctx) => {}`) through the local Worker as a user with
 * read and update on the group (the access filter is part of every figure). Prints figures; never fails on time.
 */
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createClient } from "@libsql/client";
import { seedTags } from "./metadata-tags.mjs";
import { benchApi, benchUsers, migratedDataDir, startServer, timer } from "./server.mjs";

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const { dataDir, file } = migratedDataDir("mam-bench-metadata-");
const now = Math.floor(Date.now() / 1000);
const q = (s) => `'${String(s).replace(/'/g, "''")}'`;
const db = createClient({ url: `file:${file}` });

const groupId = crypto.randomUUID();
const assetPrefix = "a55e7000-0000-4000-8000-";
const assetIdSql = (n) => `'${assetPrefix}' || printf('%012x', ${n})`;
export const assetId = (n) => `${assetPrefix}${n.toString(16).padStart(12, "0")}`;
const tpl = (k) => `7e3a1a7e-0000-4000-8000-${String(k).padStart(12, "0")}`;
/** The ten templates and how each asset's value of it is made from its number i. */
const templates = [
  ["Рубрика", "text", "{}", `printf('Рубрика %04d', i % 1000)`, "text"],
  ["Номер", "number", "{}", "i", "num"],
  ["Сцена", "text", "{}", `printf('Сцена %d', i % 50)`, "text"],
  ["Одобрено", "bool", "{}", "i % 2", "bool"],
  ["Дата съёмки", "date", "{}", `date(${now} - i * 60, 'unixepoch')`, "text"],
  ["Оператор", "text", "{}", `printf('Оператор %d', i % 300)`, "text"],
  ["Длительность", "time", '{"kind":"duration"}', "i % 3600", "num"],
  ["Рейтинг", "number", '{"min":0,"max":10}', "i % 11", "num"],
  ["Локация", "text", "{}", `printf('Локация %d', i % 2000)`, "text"],
  ["Заметка", "text", '{"multiline":true}', `printf('Заметка к кадру %d', i)`, "text"],
];

const t0 = performance.now();
const stmts = [
  `INSERT INTO groups (group_id, group_name, name_key, parent_id, path, depth, ctime, mtime)
   VALUES (${q(groupId)}, 'Бенч метаданных', 'бенч метаданных', NULL, ${q(`/${groupId}/`)}, 1, ${now}, ${now})`,
  `INSERT INTO assets (asset_id, name, owner, creator, mimetype, ctime, mtime, atime)
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ASSETS})
   SELECT ${assetIdSql("i")}, printf('Кадр %06d.mov', i), 'bench', 'bench', 'video/quicktime', ${now}, ${now}, ${now} FROM n`,
  `INSERT INTO group_members (group_id, el_id, el_type, ctime) SELECT ${q(groupId)}, asset_id, 'asset', ctime FROM assets WHERE owner = 'bench'`,
  `INSERT INTO field_templates (field_def_id, field_def_name, field_type, field_setup, field_priority, ctime, mtime) VALUES ${templates
    .map(([name, type, setup], k) => `(${q(tpl(k))}, ${q(name)}, ${q(type)}, ${q(setup)}, ${k}, ${now}, ${now})`)
    .join(", ")}`,
  ...templates.map(([, , , expr, kind], k) => {
    const data = kind === "text" ? `json_quote(${expr})` : kind === "bool" ? `json(CASE WHEN ${expr} THEN 'true' ELSE 'false' END)` : expr;
    const pts = k === 2 ? "i % 60, i % 60 + 5" : "NULL, NULL";
    return `INSERT INTO field_values (field_id, entity_id, entity_type, asset_version, pts_start, pts_end, field_data, def_id, value_text, value_num, user_id, ctime, mtime)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ASSETS})
      SELECT lower(hex(randomblob(16))), ${assetIdSql("i")}, 'asset', NULL, ${pts}, ${data}, ${q(tpl(k))},
        ${kind === "text" ? expr : "NULL"}, ${kind === "text" ? "NULL" : expr}, 'bench', ${now}, ${now} FROM n`;
  }),
];
await db.batch(stmts, "write");
await seedTags(db);
await db.execute("ANALYZE");
db.close();
console.log(`Seeded ${ASSETS} assets × ${templates.length} values and 50,000 tags: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const server = await startServer({ dataDir });
let failed = false;
try {
  const { call, post } = benchApi(server.url);
  const { adminBearer, bearer } = await benchUsers(post, groupId);
  const time = timer(RUNS, 52);
  const ctx = { url: server.url, call, post, bearer, adminBearer, assets: ASSETS, assetId, template: tpl, groupId, time, runs: RUNS, file };
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "metadata");
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith(".mjs"))
    .sort()) {
    console.log(`-- ${f.slice(0, -4)}`);
    await (await import(pathToFileURL(path.join(dir, f)).href)).default(ctx);
  }
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
