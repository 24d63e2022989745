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

/** One event row, for an insert of its own making (lib/sql.ts insertRowWhen). */
export const eventRow = (e: EventInput) => ({ eventId: newId(), ctime: nowSeconds(), userId: e.userId ?? null, ...e });

/** The insert for one event row; returned unexecuted so callers put it in the same batch as the change. */
export function eventInsert(db: Db, e: EventInput) {
  return db.insert(events).values(eventRow(e));
}
