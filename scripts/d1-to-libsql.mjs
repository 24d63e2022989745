#!/usr/bin/env node
/**
 * Copies the metadata of a local D1 database into a libSQL one (docs/decisions/049-read-replicas-and-libsql.md):
 *   LIBSQL_URL=libsql://….turso.io LIBSQL_AUTH_TOKEN=… npm run db:migrate -- --libsql
 *   LIBSQL_URL=… LIBSQL_AUTH_TOKEN=… node scripts/d1-to-libsql.mjs [path/to/d1.sqlite]
 * Without a path it takes the D1 file of `npm start` (MAM_DATA_DIR, default ./.data). For the deployed D1,
 * export it first (`wrangler d1 export DB --remote --output dump.sql`) and load that into a local SQLite file.
 * The target must have the migrations and no data. Ordinary tables are copied row by row in batches; the
 * full-text index is not copied but rebuilt: every search document is marked for the indexer, which the
 * Worker's cron (or the next search) runs.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";
import Database from "libsql";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const url = process.env.LIBSQL_URL;
if (!url) {
  console.error("d1-to-libsql: set LIBSQL_URL (and LIBSQL_AUTH_TOKEN for Turso)");
  process.exit(2);
}

function localD1File() {
  const dir = path.join(path.resolve(root, process.env.MAM_DATA_DIR || ".data"), "v3/d1/miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 file in ${dir}, found ${files.length}: pass its path`);
  return path.join(dir, files[0]);
}

const source = new Database(process.argv[2] ?? localD1File(), { readonly: true });
const target = createClient({ url, authToken: process.env.LIBSQL_AUTH_TOKEN });

// Virtual tables (the FTS5 indexes) and their shadow tables are rebuilt, not copied; wrangler's and SQLite's
// own tables stay as the target has them.
/** @typedef {{ name: string }} Named */
const virtual = /** @type {Named[]} */ (
  source.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").all()
);
const shadowOf = (name) => virtual.some((v) => name === v.name || name.startsWith(`${v.name}_`));
const tableQuery =
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'";
const tables = /** @type {Named[]} */ (source.prepare(tableQuery).all()).map((t) => t.name).filter((name) => !shadowOf(name));

const ROWS_PER_BATCH = 200;
for (const table of tables) {
  const quoted = `"${table.replace(/"/g, '""')}"`;
  const columns = source
    .prepare(`SELECT * FROM ${quoted} LIMIT 0`)
    .columns()
    .map((c) => c.name);
  const insert = `INSERT OR REPLACE INTO ${quoted} (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  let batch = [];
  let copied = 0;
  for (const row of source.prepare(`SELECT * FROM ${quoted}`).iterate()) {
    const values = /** @type {Record<string, import("@libsql/client").InValue>} */ (row);
    batch.push({ sql: insert, args: columns.map((c) => values[c]) });
    if (batch.length === ROWS_PER_BATCH) {
      await target.batch(batch, "write");
      copied += batch.length;
      batch = [];
    }
  }
  if (batch.length) await target.batch(batch, "write");
  copied += batch.length;
  console.log(`${table}: ${copied} rows`);
}
await target.execute("INSERT OR REPLACE INTO search_dirty (el_id, el_type, mark) SELECT el_id, el_type, 1 FROM search_docs");
console.log("search documents marked for re-indexing");
target.close();
source.close();
