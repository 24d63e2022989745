import { index, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * A tag: one shared vocabulary. `name_key` is the name folded as people compare
 * tags (NFC, lower case in Russian rules, ё as е, runs of spaces as one: functions/tags/name-key.ts);
 * SQLite's lower() folds ASCII only, so the key is made in code. Its unique index makes names unique
 * that way and turns a prefix search into one range of that index.
 */
export const tags = sqliteTable(
  "tags",
  {
    tagId: uuidKey("tag_id"),
    tagName: text("tag_name").notNull(),
    nameKey: text("name_key").notNull(),
    creator: text("creator"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [uniqueIndex("tags_name_key_unique").on(t.nameKey)],
);

export const taggedTypes = ["asset", "group"] as const;
export type TaggedType = (typeof taggedTypes)[number];

/** Which tags an asset or a group carries (its `tags` / `group_tags`); a row per pair. */
export const entityTags = sqliteTable(
  "entity_tags",
  {
    tagId: text("tag_id").notNull(),
    entityId: text("entity_id").notNull(),
    entityType: text("entity_type", { enum: taggedTypes }).notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.tagId] }), index("entity_tags_tag_idx").on(t.tagId, t.entityId)],
);

export type Tag = typeof tags.$inferSelect;
