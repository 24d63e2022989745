import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** The global events list, which is also the audit trail: every state change writes one row. */
export const events = sqliteTable(
  "events",
  {
    eventId: uuidKey("event_id"),
    ctime: unixTime("ctime").notNull(),
    userId: text("user_id"),
    kind: text("kind").notNull(),
    entityType: text("entity_type"),
    entityId: text("entity_id"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>(),
    /**
     * What the event names, as it was named when the event was written: {"<id>": ["<type>", "<name>", …]}. Filled by
     * the trigger events_names (migration 0028), never by the writers; the history reads deleted objects by it.
     */
    names: text("names", { mode: "json" }).$type<Record<string, unknown[]>>(),
  },
  (t) => [index("events_ctime_idx").on(t.ctime), index("events_entity_idx").on(t.entityId)],
);
