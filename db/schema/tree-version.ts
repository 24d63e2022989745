import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * One row (id 1): a random number that SQL triggers (migration 0008_tree_version) replace whenever a group
 * is added, removed, renamed, moved, deleted or restored, whichever code writes it. Long answers about the
 * tree are kept compressed under it and served again while it stands (functions/lib/tree-answers.ts).
 */
export const treeVersion = sqliteTable("tree_version", {
  id: integer("id").primaryKey(),
  v: integer("v").notNull(),
});
