import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

export const memberTypes = ["asset", "user"] as const;
export type MemberType = (typeof memberTypes)[number];

/**
 * Non-group members of a group: assets (an asset may sit in several groups) and users (the group is
 * then also a team whose rules its users get). Subgroups are not rows here: a group has one parent
 * (groups.parent_id). Ordered by (ctime, el_id) within a group so pages are index ranges.
 */
export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: text("group_id").notNull(),
    elId: text("el_id").notNull(),
    elType: text("el_type", { enum: memberTypes }).notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.elType, t.elId] }),
    index("group_members_page_idx").on(t.groupId, t.elType, t.ctime, t.elId),
    index("group_members_el_idx").on(t.elId, t.elType, t.groupId),
  ],
);
