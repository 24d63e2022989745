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
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMigrationsTable, pendingMigrations, recordMigration } from "./migrations.mjs";
import { withOfflineEnv } from "./offline-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

if (args.includes("--remote")) {
  const wrangler = path.join(root, "node_modules/.bin/wrangler");
  const result = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", "--remote"], { stdio: "inherit", env: withOfflineEnv() });
  process.exit(result.status ?? 1);
}

if (!args.includes("--libsql")) {
  // The local D1, as `npm start` readies it before serving (scripts/local-d1.mjs).
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  const { prepareLocalD1 } = await import("./local-d1.mjs");
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  const dataDir = path.resolve(root, process.env.MAM_DATA_DIR || ".data");
  const applied = await prepareLocalD1({ d1Databases: workerOptions.d1Databases, persistRoot: path.join(dataDir, "v3") });
  for (const name of applied) console.log(`applied ${name}`);
  console.log(applied.length ? `${applied.length} migration(s) applied to the local D1 in ${dataDir}` : "no migrations to apply");
  process.exit(0);
}

const url = process.env.LIBSQL_URL;
if (!url) {
  console.error("db:migrate --libsql: set LIBSQL_URL (and LIBSQL_AUTH_TOKEN for Turso), e.g. LIBSQL_URL=file:meta.db");
  process.exit(2);
}
const { createClient } = await import("@libsql/client");
const client = createClient({ url, authToken: process.env.LIBSQL_AUTH_TOKEN });
await client.execute(createMigrationsTable);
const applied = new Set((await client.execute("SELECT name FROM d1_migrations")).rows.map((r) => r.name));
let count = 0;
for (const { name, statements } of pendingMigrations(applied)) {
  // One migration, one transaction: a failure leaves the database as the previous migration left it.
  await client.batch([...statements, { sql: recordMigration, args: [name] }], "write");
  console.log(`applied ${name}`);
  count++;
}
console.log(count ? `${count} migration(s) applied to ${url.replace(/\?.*$/, "")}` : "no migrations to apply");
client.close();
