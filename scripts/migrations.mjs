/**
 * db/migrations as wrangler applies them: in the order of their numbers, each recorded by name in d1_migrations
 * (wrangler's own table), each in one batch with its record, so a failure leaves the database as the previous
 * migration left it. Used for the local D1 of `npm start` (scripts/local-d1.mjs) and for libSQL (db-migrate.mjs).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_splitSqlQuery as splitSql } from "wrangler";

const migrationsDir = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."), "db/migrations");

export const createMigrationsTable = `CREATE TABLE IF NOT EXISTS d1_migrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`;
export const recordMigration = "INSERT INTO d1_migrations (name) VALUES (?)";

/** The migrations not in `applied` (names), each with its statements, in the order they apply. */
export function pendingMigrations(applied) {
  return readdirSync(migrationsDir)
    .filter((n) => n.endsWith(".sql") && !applied.has(n))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    .map((name) => ({ name, statements: splitSql(readFileSync(path.join(migrationsDir, name), "utf8")) }));
}

export { splitSql };
