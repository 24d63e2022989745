#!/usr/bin/env node
/**
 * Applies db/migrations to the metadata store (docs/decisions/049-read-replicas-and-libsql.md):
 *   npm run db:migrate                  the local D1 of `npm start` (MAM_DATA_DIR, default ./.data)
 *   npm run db:migrate -- --remote      the deployed D1 (wrangler's own command)
 *   npm run db:migrate -- --libsql      the libSQL database at LIBSQL_URL (+ LIBSQL_AUTH_TOKEN): Turso, a libSQL
 *                                       server, or a file: URL
 * The libSQL path records applied migrations in d1_migrations, the table wrangler keeps in D1, so a database
 * copied from D1 (scripts/d1-to-libsql.mjs) carries on from where it was.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withOfflineEnv } from "./offline-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const migrationsDir = path.join(root, "db/migrations");
const args = process.argv.slice(2);

if (!args.includes("--libsql")) {
  const where = args.includes("--remote")
    ? ["--remote"]
    : ["--local", "--persist-to", path.resolve(root, process.env.MAM_DATA_DIR || ".data")];
  const wrangler = path.join(root, "node_modules/.bin/wrangler");
  const result = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", ...where], { stdio: "inherit", env: withOfflineEnv() });
  process.exit(result.status ?? 1);
}

const url = process.env.LIBSQL_URL;
if (!url) {
  console.error("db:migrate --libsql: set LIBSQL_URL (and LIBSQL_AUTH_TOKEN for Turso), e.g. LIBSQL_URL=file:meta.db");
  process.exit(2);
}
const { createClient } = await import("@libsql/client");
const { unstable_splitSqlQuery: splitSql } = await import("wrangler");
const client = createClient({ url, authToken: process.env.LIBSQL_AUTH_TOKEN });
await client.execute(`CREATE TABLE IF NOT EXISTS d1_migrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`);
const applied = new Set((await client.execute("SELECT name FROM d1_migrations")).rows.map((r) => r.name));
const names = readdirSync(migrationsDir)
  .filter((n) => n.endsWith(".sql"))
  .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
let count = 0;
for (const name of names) {
  if (applied.has(name)) continue;
  const statements = splitSql(readFileSync(path.join(migrationsDir, name), "utf8"));
  // One migration, one transaction: a failure leaves the database as the previous migration left it.
  await client.batch([...statements, { sql: "INSERT INTO d1_migrations (name) VALUES (?)", args: [name] }], "write");
  console.log(`applied ${name}`);
  count++;
}
console.log(count ? `${count} migration(s) applied to ${url.replace(/\?.*$/, "")}` : "no migrations to apply");
client.close();
