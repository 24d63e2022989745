import { sql } from "drizzle-orm";
import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** An asset class: a name and the field definitions its assets get by default. */
export const assetClasses = sqliteTable(
  "asset_classes",
  {
    classId: uuidKey("class_id"),
    name: text("name").notNull(),
    defFields: text("def_fields", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [uniqueIndex("asset_classes_name_unique").on(t.name)],
);

export type AssetClass = typeof assetClasses.$inferSelect;
