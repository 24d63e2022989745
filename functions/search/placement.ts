/**
 * A document's placement set (docs/decisions/052-frequent-words.md): what the access engine's answer for it
 * depends on when the caller has no rule on single assets. An asset placed in groups: those groups (live or in
 * the trash: the engine tells them apart at query time). An unplaced asset: its owner. A group: itself.
 */
export type Placement = { groups: string[]; owner: string } | { group: string };

export function placementKey(p: Placement): string {
  if ("group" in p) return `s:${p.group}`;
  return p.groups.length ? `g:${[...new Set(p.groups)].sort().join(",")}` : `o:${p.owner}`;
}
