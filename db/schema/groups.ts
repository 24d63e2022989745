import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * A group: a folder of assets and, when users are its members, a team.
 * `path` is the materialized path of ids, "/root/…/self/": a subtree is one index range
 * [path, path-with-last-'/'-as-'0'), which is what the permission engine filters on
 * (docs/decisions/003-permission-engine.md). Moving a group rewrites its subtree's paths in one UPDATE.
 */
export const groups = sqliteTable(
  "groups",
  {
    groupId: uuidKey("group_id"),
    groupName: text("group_name").notNull(),
    /** NFC + lower-cased name (SQLite's lower() ignores Cyrillic): sibling names are unique by it. */
    nameKey: text("name_key").notNull(),
    /** null for a root. */
    parentId: text("parent_id"),
    path: text("path").notNull(),
    depth: integer("depth").notNull(),
    owner: text("owner"),
    defaultStorage: text("default_storage"),
    defaultClass: text("default_class"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
    /** Soft delete (docs/decisions/004-group-delete-and-purge.md): set on the group and its whole subtree. */
    deletedAt: unixTime("deleted_at"),
    /** The group whose delete hid this row, so restoring it brings back exactly what it hid. */
    deletedRoot: text("deleted_root"),
    /** Who deleted it (set on the subtree with deleted_at): the «Удалённые» list shows it and offers users their own. */
    deletedBy: text("deleted_by"),
    /**
     * How many assets are members of this group (group_members rows), kept by SQL triggers (migration
     * 0007_page_from_either_end) whichever code writes them: a deep page of members/{id} walks from the
     * nearer end of the list, which needs the length without counting it.
     */
    assetCount: integer("asset_count").notNull().default(0),
  },
  (t) => [
    // Two partial indexes rather than one on coalesce(parent_id, ''): NULL parents never clash in a unique index.
    uniqueIndex("groups_sibling_name_unique").on(t.parentId, t.nameKey).where(sql`deleted_at IS NULL`),
    uniqueIndex("groups_root_name_unique").on(t.nameKey).where(sql`parent_id IS NULL AND deleted_at IS NULL`),
    // Children of a group in display order, covering, so deep OFFSETs walk the index only.
    index("groups_parent_idx").on(t.parentId, t.deletedAt, t.nameKey, t.groupId),
    // A subtree is a range of this index, covering for subtree/{id}: a 10,000-group branch never visits the table.
    index("groups_path_idx").on(t.path, t.deletedAt, t.groupId, t.groupName, t.parentId, t.depth),
    index("groups_deleted_root_idx").on(t.deletedRoot),
  ],
);

export type Group = typeof groups.$inferSelect;
