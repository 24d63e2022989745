import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * An asset. Its groups are group_members rows (el_type 'asset'); its bytes are
 * variants of versions. default_storage overrides the group's and the user's storage choice.
 */
export const assets = sqliteTable(
  "assets",
  {
    assetId: uuidKey("asset_id"),
    name: text("name").notNull(),
    owner: text("owner").notNull(),
    creator: text("creator").notNull(),
    mimetype: text("mimetype").notNull(),
    classId: text("class_id"),
    defaultStorage: text("default_storage"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
    atime: unixTime("atime").notNull(),
  },
  (t) => [index("assets_owner_idx").on(t.owner), index("assets_class_idx").on(t.classId)],
);

export type Asset = typeof assets.$inferSelect;
