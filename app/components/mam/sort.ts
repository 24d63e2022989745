import type { Member } from "./mam-api";

export type SortKey = "none" | "name" | "date" | "size";
export type SortDir = "asc" | "desc";

const collator = new Intl.Collator("ru", { numeric: true, sensitivity: "base" });

/**
 * The members API pages in one order (subgroups by name, then assets as added), so other orders apply to
 * the items loaded so far. Subgroups stay ahead of files, as in the server's order.
 */
export function sortMembers(items: Member[], key: SortKey, dir: SortDir): Member[] {
  if (key === "none") return dir === "asc" ? items : [...items].reverse();
  const sign = dir === "asc" ? 1 : -1;
  const value = (m: Member) => (key === "date" ? m.el_info.ctime : m.el_info.var_size ?? 0);
  return [...items].sort((a, b) => {
    if (a.el_type !== b.el_type) return a.el_type === "group" ? -1 : 1;
    const diff = key === "name" ? collator.compare(a.el_info.name, b.el_info.name) : value(a) - value(b);
    return sign * (diff || collator.compare(a.el_info.name, b.el_info.name));
  });
}
