import { env } from "cloudflare:test";
import type { Env } from "../../functions/lib/env";

/**
 * API test files share a runtime (vitest `isolate: false`, docs/decisions/071-api-suite-in-shared-runtimes.md), or
 * in the libSQL layer a Node process, so the database and the bucket outlive a file. Each file starts as if it had its own: every table back to what the
 * migrations left (their seeded rows, such as the tree version and the automations' event cursor), every object
 * deleted. The schema stays.
 */

/** The suffixes of the shadow tables SQLite keeps for an FTS5 table: emptying the table empties them. */
const ftsShadows = ["_data", "_idx", "_content", "_docsize", "_config"];

type Baseline = { tables: string[]; seeded: { table: string; row: Record<string, unknown> }[] };

/** The tables a file can write to, and the rows the migrations put in them; read once per runtime, while fresh. */
async function readBaseline(db: D1Database): Promise<Baseline> {
  const { results } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .all<{ name: string; sql: string }>();
  const virtual = results.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const shadow = (name: string) => virtual.some((v) => ftsShadows.some((suffix) => name === v + suffix));
  const tables = results
    .filter((t) => t.name !== "d1_migrations" && !shadow(t.name) && !/USING\s+fts5vocab/i.test(t.sql))
    .map((t) => t.name);
  const plain = tables.filter((t) => !virtual.includes(t));
  const rows = await db.batch(plain.map((t) => db.prepare(`SELECT * FROM "${t}"`)));
  const seeded = plain.flatMap((table, i) => (rows[i].results as Record<string, unknown>[]).map((row) => ({ table, row })));
  return { tables, seeded };
}

let baseline: Promise<Baseline> | undefined;

/** Binds a value as read back from D1: a blob comes back as an array of bytes. */
const bindable = (v: unknown) => (Array.isArray(v) ? new Uint8Array(v) : v);

export async function resetDatabase(db: D1Database) {
  baseline ??= readBaseline(db);
  const { tables, seeded } = await baseline;
  // Triggers write while rows go (a deleted asset marks its search document), so three passes leave every table
  // empty whatever the order; foreign keys are checked once, at the end of the one transaction.
  const deletes = tables.map((name) => db.prepare(`DELETE FROM "${name}"`));
  const inserts = seeded.map(({ table, row }) => {
    const columns = Object.keys(row);
    return db
      .prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
      .bind(...Object.values(row).map(bindable));
  });
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...deletes,
    ...deletes,
    ...deletes,
    db.prepare("DELETE FROM sqlite_sequence WHERE name <> 'd1_migrations'"),
    ...inserts,
    // The Worker keeps tree answers by this version (lib/tree-answers.ts), and its isolate outlives the file too.
    db.prepare("UPDATE tree_version SET v = random() >> 11"),
  ]);
}

export async function emptyBucket(bucket: R2Bucket) {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  // Multipart uploads left open by a file are not listed above; they hold no visible object.
}

/** `db`: the metadata store the Worker uses, D1 or (tests/libsql) the libSQL file through D1's API. */
export async function freshStart(db: D1Database) {
  await resetDatabase(db);
  await emptyBucket((env as unknown as Env).BUCKET);
}
