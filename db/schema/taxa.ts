import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * A taxon: a node of the one taxonomy tree ("Природа/Животные/Кошки"). Like groups, `path` is the
 * materialized path of ids ("/root/…/self/"), so a subtree (list-members?descendants=true, delete,
 * move) is one index range; sibling names are unique by `name_key` (functions/tags/name-key.ts).
 */
export const taxa = sqliteTable(
  "taxa",
  {
    taxonId: uuidKey("taxon_id"),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull(),
    /** null for a root. */
    parentId: text("parent_id"),
    path: text("path").notNull(),
    depth: integer("depth").notNull(),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [
    // Two partial indexes, as for groups: NULL parents never clash in a unique index.
    uniqueIndex("taxa_sibling_name_unique").on(t.parentId, t.nameKey).where(sql`parent_id IS NOT NULL`),
    uniqueIndex("taxa_root_name_unique").on(t.nameKey).where(sql`parent_id IS NULL`),
    index("taxa_path_idx").on(t.path, t.taxonId),
  ],
);

export const taxonMemberTypes = ["asset", "group"] as const;

/** An object (asset or group) filed under a taxon. */
export const taxonMembers = sqliteTable(
  "taxon_members",
  {
    taxonId: text("taxon_id").notNull(),
    objectId: text("object_id").notNull(),
    objectType: text("object_type", { enum: taxonMemberTypes }).notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [primaryKey({ columns: [t.taxonId, t.objectId] }), index("taxon_members_object_idx").on(t.objectId, t.taxonId)],
);

export type Taxon = typeof taxa.$inferSelect;
