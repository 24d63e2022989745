import { and, inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { groups } from "../../db/schema";
import { type AccessContext, placedAnywhere } from "../lib/access";
import { assetFilter, groupFilter, placementWhere } from "../lib/access-sql";
import type { Db } from "../lib/db";
import { idList } from "../lib/sql";

/**
 * Assets the caller may read, as SQL over an asset id column: the access engine's filter, and for admins (whom it
 * passes for every asset) not those that sit only in the trash, as search does (functions/search/readable.ts).
 */
export function readableAsset(ctx: AccessContext, assetId: SQLWrapper): SQL {
  if (!ctx.admin) return assetFilter(ctx, assetId);
  return sql`(NOT ${placedAnywhere(assetId)} OR ${placementWhere(assetId, sql`1`)})`;
}

/** The originals of an asset's latest version: what "the same file" compares (not proxies or previews). */
export const latestOriginal = (alias: string) =>
  sql.raw(`EXISTS (SELECT 1 FROM variants ov WHERE ov.variant_id = ${alias}.variant_id AND ov.variant_type IN ('initial', 'master', 'untyped'))
    AND ${alias}.version = (SELECT max(lv.version) FROM versions lv WHERE lv.asset_id = ${alias}.asset_id)`);

export interface Placed {
  id: string;
  name: string;
  /** The readable live groups holding it, each as the names of its readable ancestors and itself: "/Фото/2024". */
  groups: { group_id: string; path: string }[];
}

/**
 * Names and readable placements of `assets`, in their order. A path names only groups the caller may read: an
 * ancestor it cannot read is left out rather than told.
 */
export async function placed(db: Db, ctx: AccessContext, assets: { id: string; name: string }[]): Promise<Placed[]> {
  if (assets.length === 0) return [];
  const rows = await db.all<{ el_id: string; group_id: string; path: string }>(
    sql`SELECT gm.el_id, g.group_id, g.path FROM group_members gm JOIN groups g ON g.group_id = gm.group_id
      WHERE gm.el_type = 'asset' AND gm.el_id IN ${idList(assets.map((a) => a.id))} AND ${groupFilter(ctx, { path: sql.raw("g.path"), deletedAt: sql.raw("g.deleted_at") })}`,
  );
  const ids = [...new Set(rows.flatMap((r) => r.path.split("/").filter(Boolean)))];
  const named = ids.length
    ? await db
        .select({ id: groups.groupId, name: groups.groupName, path: groups.path })
        .from(groups)
        .where(and(inArray(groups.groupId, ids), groupFilter(ctx, groups)))
        .all()
    : [];
  const nameOf = new Map(named.map((g) => [g.id, g.name]));
  const pathOf = (path: string) =>
    `/${path
      .split("/")
      .filter((id) => nameOf.has(id))
      .map((id) => nameOf.get(id))
      .join("/")}`;
  return assets.map((a) => ({
    id: a.id,
    name: a.name,
    groups: rows
      .filter((r) => r.el_id === a.id)
      .map((r) => ({ group_id: r.group_id, path: pathOf(r.path) }))
      .sort((x, y) => x.path.localeCompare(y.path)),
  }));
}
