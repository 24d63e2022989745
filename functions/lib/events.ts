import { AsyncLocalStorage } from "node:async_hooks";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { events } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "./db";
import { newId } from "./ids";

export interface EventInput {
  kind: string;
  userId?: string | null;
  entityType?: string;
  entityId?: string;
  data?: Record<string, unknown>;
}

/**
 * The automation run a change is made by, if any (functions/udwf/runner.ts): its events carry it as data.udwf, so
 * the dispatcher never lets a workflow's own changes start it again and stops chains at depth 5.
 */
export interface EventCause {
  workflow: string;
  run: string;
  depth: number;
}
const causes = new AsyncLocalStorage<EventCause>();

export const withCause = <T>(cause: EventCause, fn: () => Promise<T>) => causes.run(cause, fn);

/** { udwf: cause } inside a run, {} outside: merged into event data written by raw SQL too (tags/links.ts). */
export const causeData = (): { udwf?: EventCause } => {
  const cause = causes.getStore();
  return cause ? { udwf: cause } : {};
};

/** One event row, for an insert of its own making (lib/sql.ts insertRowWhen). */
export const eventRow = (e: EventInput) => {
  const cause = causeData();
  return {
    eventId: newId(),
    ctime: nowSeconds(),
    userId: e.userId ?? null,
    ...e,
    ...(cause.udwf ? { data: { ...e.data, ...cause } } : {}),
  };
};

/** The insert for one event row; returned unexecuted so callers put it in the same batch as the change. */
export function eventInsert(db: Db, e: EventInput) {
  return db.insert(events).values(eventRow(e));
}

/** A new row and the event that records it, in one batch: both land or neither does. */
export async function insertWithEvent<T extends SQLiteTable>(db: Db, table: T, row: T["$inferInsert"], e: EventInput) {
  await db.batch([db.insert(table).values(row), eventInsert(db, e)]);
}
