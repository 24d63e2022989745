import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
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

/** A readable placement of an asset, with the readable groups on its path (itself included) as JSON [[id, name], …]. */
export interface PlacementRow {
  el_id: string;
  group_id: string;
  path: string;
  names: string;
}

/**
 * The readable placements of the assets `assetIds` selects (a list or a subquery), each with the names it needs, in
 * one statement: a caller can send it beside the query that finds the assets instead of after it.
 */
export function placementsQuery(ctx: AccessContext, assetIds: SQL): SQL {
  const readable = (alias: string) => groupFilter(ctx, { path: sql.raw(`${alias}.path`), deletedAt: sql.raw(`${alias}.deleted_at`) });
  // The path "/a/b/self/" as the JSON array ["a","b","self"]: ids are hex and dashes, so nothing needs escaping.
  const pathIds = sql.raw(`json_each('["' || replace(trim(g.path, '/'), '/', '","') || '"]')`);
  return sql`SELECT gm.el_id, g.group_id, g.path,
      (SELECT json_group_array(json_array(anc.group_id, anc.group_name)) FROM groups anc
        WHERE anc.group_id IN (SELECT value FROM ${pathIds}) AND ${readable("anc")}) AS names
    FROM group_members gm JOIN groups g ON g.group_id = gm.group_id
    WHERE gm.el_type = 'asset' AND gm.el_id IN ${assetIds} AND ${readable("g")}`;
}

/**
 * Names and readable placements of `assets`, in their order, from the rows of `placementsQuery`. A path names only
 * groups the caller may read: an ancestor it cannot read is left out rather than told.
 */
export function placedFrom(assets: { id: string; name: string }[], rows: PlacementRow[]): Placed[] {
  const pathOf = (r: PlacementRow) => {
    const nameOf = new Map(JSON.parse(r.names) as [string, string][]);
    return `/${r.path
      .split("/")
      .filter((id) => nameOf.has(id))
      .map((id) => nameOf.get(id))
      .join("/")}`;
  };
  return assets.map((a) => ({
    id: a.id,
    name: a.name,
    groups: rows
      .filter((r) => r.el_id === a.id)
      .map((r) => ({ group_id: r.group_id, path: pathOf(r) }))
      .sort((x, y) => x.path.localeCompare(y.path)),
  }));
}

/** Names and readable placements of `assets`, in their order (one round trip). */
export async function placed(db: Db, ctx: AccessContext, assets: { id: string; name: string }[]): Promise<Placed[]> {
  if (assets.length === 0) return [];
  return placedFrom(assets, await db.all<PlacementRow>(placementsQuery(ctx, idList(assets.map((a) => a.id)))));
}
