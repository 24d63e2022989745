import { sql } from "drizzle-orm";
import { nowSeconds } from "../../db/schema/columns";
import { configOf } from "../lib/config";
import { changesOf, type Db } from "../lib/db";
import type { Env } from "../lib/env";

/** Rows deleted per statement, and statements per cron run: a backlog clears over a few runs, no run holds D1 long. */
const BATCH = 5000;
const MAX_BATCHES = 20;

/**
 * Events older than EVENTS_RETENTION_DAYS go, oldest first (docs/decisions/043-events-list.md); unset keeps every
 * event. Returns how many were deleted.
 */
export async function pruneEvents(db: Db, env: Pick<Env, "EVENTS_RETENTION_DAYS">, now = nowSeconds()): Promise<number> {
  const days = configOf(env).EVENTS_RETENTION_DAYS;
  if (days === null) return 0;
  const cutoff = now - Math.round(days * 86400);
  let deleted = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    // Rows are appended, so the oldest rowids are the old events: the inner scan stops after BATCH of them.
    const result = await db.run(
      sql`DELETE FROM events WHERE rowid IN (SELECT rowid FROM events WHERE ctime < ${cutoff} ORDER BY rowid LIMIT ${BATCH})`,
    );
    const changes = changesOf(result);
    deleted += changes;
    if (changes < BATCH) break;
  }
  return deleted;
}
