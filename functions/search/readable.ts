import { and, sql, type SQL } from "drizzle-orm";
import { placedAnywhere, type AccessContext } from "../lib/access";
import type { Db } from "../lib/db";
import { idList } from "../lib/sql";
import { assetFilter, groupFilter, placementWhere } from "../lib/access-sql";

const d = (col: string) => sql.raw(`d.${col}`);

/**
 * Search finds nothing that is only in the trash, for admins too (whose access filter passes every asset): an
 * asset whose placements are all in deleted groups is listed by the trash, not by search. Other callers' filter
 * already asks for a live placement (or an unplaced asset of their own).
 */
const notOnlyInTrash = sql`(NOT ${placedAnywhere(d("el_id"))} OR ${placementWhere(d("el_id"), sql`1`)})`;

/** What the caller may read of the documents `d`: assets by the access engine's SQL, groups by their path. */
export function readableDocs(ctx: AccessContext): SQL {
  const groupCols = { path: sql.raw("rg.path"), deletedAt: sql.raw("rg.deleted_at") };
  const assets = ctx.admin ? and(assetFilter(ctx, d("el_id")), notOnlyInTrash)! : assetFilter(ctx, d("el_id"));
  return sql`((${d("el_type")} = 'asset' AND ${assets})
    OR (${d("el_type")} = 'group' AND EXISTS (SELECT 1 FROM groups rg WHERE rg.group_id = ${d("el_id")} AND ${groupFilter(ctx, groupCols)})))`;
}

/** Which of `ids` are documents the caller may read: a ranked candidate list checked after ranking. */
export async function readableOf(db: Db, ctx: AccessContext, ids: string[]): Promise<Set<string>> {
  const rows = await db.all<{ el_id: string }>(
    sql`SELECT d.el_id FROM search_docs d WHERE d.el_id IN ${idList(ids)} AND ${readableDocs(ctx)}`,
  );
  return new Set(rows.map((r) => r.el_id));
}
