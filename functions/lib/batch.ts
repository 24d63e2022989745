import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./db";

/** db.batch for a list built at run time (drizzle's type wants a non-empty tuple): all or nothing. */
export async function batchAll(db: Db, items: BatchItem<"sqlite">[]): Promise<unknown[]> {
  if (items.length === 0) return [];
  return db.batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}
