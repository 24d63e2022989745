/**
 * Readies the local D1 of a data directory before the Worker serves from it: the migrations not yet applied (as
 * `wrangler d1 migrations apply --local` would, scripts/migrations.mjs), then MAM_SEED_SQL when given. It runs in
 * the process that starts the Worker, through a Miniflare of its own with only the database: a wrangler command
 * for each cost ~5 s of CPU at every start. The database is the file the Worker's Miniflare opens next.
 */
import { Miniflare } from "miniflare";
import { createMigrationsTable, pendingMigrations, recordMigration, splitSql } from "./migrations.mjs";

/**
 * `d1Databases` and `persistRoot` as the Worker's Miniflare gets them; returns the names of the migrations applied.
 * @param {{ d1Databases: import("miniflare").WorkerOptions["d1Databases"], persistRoot: string, seedSql?: string }} options
 */
export async function prepareLocalD1({ d1Databases, persistRoot, seedSql }) {
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    cf: false,
    modules: true,
    script: "export default { fetch: () => new Response(null, { status: 404 }) }",
    d1Databases,
    defaultPersistRoot: persistRoot,
  });
  try {
    const db = await mf.getD1Database("DB");
    await db.prepare(createMigrationsTable).run();
    const { results } = await db.prepare("SELECT name FROM d1_migrations").all();
    const pending = pendingMigrations(new Set(results.map((r) => r.name)));
    for (const { name, statements } of pending) {
      await db.batch([...statements.map((sql) => db.prepare(sql)), db.prepare(recordMigration).bind(name)]);
    }
    if (seedSql) await db.batch(splitSql(seedSql).map((sql) => db.prepare(sql)));
    return pending.map((m) => m.name);
  } finally {
    await mf.dispose();
  }
}
