import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

export const memberTypes = ["asset", "user"] as const;
export type MemberType = (typeof memberTypes)[number];

/**
 * Non-group members of a group: assets (an asset may sit in several groups) and users (the group is
 * then also a team whose rules its users get). Subgroups are not rows here: a group has one parent
 * (groups.parent_id). Ordered by (ctime, el_id) within a group so pages are index ranges.
 *
 * An asset row also carries copies of what the contents can be sorted by (members/{id}?sort=): the
 * case-folded name, the asset's ctime and the size of its latest main variant, each with an index, so a
 * sorted page of a 100,000-asset group is an index range too. SQL triggers (migration 0006_member_sort)
 * keep the copies in step with assets and variants, whichever code writes them.
 */
export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: text("group_id").notNull(),
    elId: text("el_id").notNull(),
    elType: text("el_type", { enum: memberTypes }).notNull(),
    ctime: unixTime("ctime").notNull(),
    sortName: text("sort_name"),
    sortCtime: unixTime("sort_ctime"),
    sortSize: integer("sort_size"),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.elType, t.elId] }),
    index("group_members_page_idx").on(t.groupId, t.elType, t.ctime, t.elId),
    index("group_members_el_idx").on(t.elId, t.elType, t.groupId),
    index("group_members_name_idx").on(t.groupId, t.elType, t.sortName, t.elId),
    index("group_members_ctime_idx").on(t.groupId, t.elType, t.sortCtime, t.elId),
    index("group_members_size_idx").on(t.groupId, t.elType, t.sortSize, t.elId),
  ],
);
