/**
 * The contents' sort control and the members API's order (shared/groups/schemas.ts membersQuery): the
 * server sorts the whole group, so changing the sort reloads the list from its first page.
 */
export type SortKey = "none" | "name" | "date" | "size";
export type SortDir = "asc" | "desc";

export interface MembersOrder {
  /** Absent: subgroups by name, then assets as added. */
  sort?: "name" | "ctime" | "size";
  order: SortDir;
  /** The contents filter (the members call's `filters`, a substring of the name); absent: the whole group. */
  filters?: string;
}

export const DEFAULT_ORDER: MembersOrder = { order: "asc" };

export function membersOrder(key: SortKey, dir: SortDir): MembersOrder {
  return { sort: key === "none" ? undefined : key === "date" ? "ctime" : key, order: dir };
}
