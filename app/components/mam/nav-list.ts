import { listMembers } from "./mam-api";

/**
 * The assets of the group last shown, in the order shown (sort included), so the viewer's previous/next
 * follow what the user saw. A viewer opened by a link fetches the first pages itself.
 */
let last: { groupId: string; ids: string[] } | null = null;

export function rememberOrder(groupId: string, ids: string[]) {
  last = { groupId, ids };
}

const FALLBACK_PAGES = 10;

export async function assetOrder(groupId: string, assetId: string): Promise<string[]> {
  if (last?.groupId === groupId && last.ids.includes(assetId)) return last.ids;
  const ids: string[] = [];
  for (let page = 0; page < FALLBACK_PAGES; page++) {
    const rows = await listMembers(groupId, ids.length, { take: 200, type: "asset" });
    ids.push(...rows.map((r) => r.el_id));
    if (rows.length < 200 || ids.includes(assetId)) break;
  }
  return ids;
}
