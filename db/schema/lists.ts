import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** A list (a controlled vocabulary): the choices a text field with setup.list_id offers. */
export const lists = sqliteTable(
  "lists",
  {
    listId: uuidKey("list_id"),
    name: text("list_name").notNull(),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [uniqueIndex("lists_name_unique").on(t.name)],
);

/** A list record: one choice; rec_data is the text a field value holds. */
export const listRecords = sqliteTable(
  "list_records",
  {
    recId: uuidKey("rec_id"),
    listId: text("list_id").notNull(),
    recData: text("rec_data").notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [uniqueIndex("list_records_data_unique").on(t.listId, t.recData), index("list_records_list_idx").on(t.listId, t.ctime)],
);

export type List = typeof lists.$inferSelect;
export type ListRecord = typeof listRecords.$inferSelect;
