import { primaryKey, sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/** A version of an asset: numbered 1, 2, … per asset; holds variants. */
export const versions = sqliteTable(
  "versions",
  {
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    desc: text("desc").notNull().default(""),
    userId: text("user_id"),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.version] })],
);

export type Version = typeof versions.$inferSelect;
