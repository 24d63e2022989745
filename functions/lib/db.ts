import { createClient } from "@libsql/client/web";
import { entityKind } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql/driver";
import type { Env } from "./env";

/**
 * The metadata store (docs/decisions/049-read-replicas-and-libsql.md): the D1 binding, or a libSQL database
 * (Turso, or any libSQL server) when LIBSQL_URL is set. Both speak SQLite's SQL through drizzle's sqlite
 * dialect and take the same migrations; the code holds one Db type and never asks which one it has. The few
 * statements drizzle cannot build (raw SQL with bound values in a batch) go through lib/sql.ts rawBatch.
 */
export type Db = ReturnType<typeof drizzle>;

export function getDb(env: Pick<Env, "DB" | "LIBSQL_URL" | "LIBSQL_AUTH_TOKEN">): Db {
  if (env.LIBSQL_URL) {
    // drizzle's libSQL database has the D1 one's query API (select, batch, run, all, get); the results of
    // run() differ, so the code reads changes with changesOf().
    // A client per call, never one kept in the isolate: its HTTP streams are I/O objects of the request that
    // opened them, and workerd cancels a later request that waits on them ("a promise was resolved from a
    // different request context"), which hung requests under load. Creating one opens no connection.
    const client = createClient({ url: env.LIBSQL_URL, authToken: env.LIBSQL_AUTH_TOKEN });
    const db = drizzleLibsql(client);
    // drizzle's libSQL get() of raw SQL fails when no row comes back (it normalizes `undefined`): the first of
    // all() answers the same as D1's get(), a row or undefined.
    db.get = (async (query: Parameters<typeof db.all>[0]) => (await db.all(query))[0]) as typeof db.get;
    return guardBatch(db as unknown as Db);
  }
  // No `schema`: the code builds its queries (no relational db.query), and drizzle would walk every table of
  // it on each call here, a quarter of a signed-in request's CPU.
  return guardBatch(drizzle(env.DB));
}

/**
 * drizzle's D1 batch throws "Cannot read properties of undefined (reading 'bind')" on a raw statement
 * (db.all/run/get/values of sql`…`) that carries bound values, while its libSQL batch runs it: code that passes on
 * one store fails on the other. Such a statement is refused on both, naming it, so the first test that reaches it
 * fails on either store; raw SQL with bound values goes through rawBatch, raw SQL in a drizzle batch inlines its
 * values (`inlined`, `literal`; both in lib/sql.ts).
 */
function guardBatch(db: Db): Db {
  const batch = db.batch.bind(db);
  db.batch = ((items: Parameters<Db["batch"]>[0]) => {
    for (const item of items) {
      const kind = (item.constructor as { [entityKind]?: string })[entityKind];
      if (kind !== "SQLiteRaw") continue;
      const query = (item as unknown as { getQuery(): { sql: string; params: unknown[] } }).getQuery();
      if (query.params.length > 0)
        throw new Error(`A raw statement with bound values cannot go in db.batch (use rawBatch): ${query.sql.slice(0, 120)}`);
    }
    return batch(items);
  }) as unknown as Db["batch"];
  return db;
}

/** Rows a run() wrote, from either store's answer. */
export function changesOf(result: unknown): number {
  const r = result as { meta?: { changes?: number }; rowsAffected?: number };
  return r.meta?.changes ?? r.rowsAffected ?? 0;
}
