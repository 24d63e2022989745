import { sql, type SQL } from "drizzle-orm";
import type { AccessContext } from "../lib/access";
import { assetFilter, groupFilter } from "../lib/access-sql";

const d = (col: string) => sql.raw(`d.${col}`);

/** What the caller may read of the documents `d`: assets by the access engine's SQL, groups by their path. */
export function readableDocs(ctx: AccessContext): SQL {
  const groupCols = { path: sql.raw("rg.path"), deletedAt: sql.raw("rg.deleted_at") };
  return sql`((${d("el_type")} = 'asset' AND ${assetFilter(ctx, d("el_id"))})
    OR (${d("el_type")} = 'group' AND EXISTS (SELECT 1 FROM groups rg WHERE rg.group_id = ${d("el_id")} AND ${groupFilter(ctx, groupCols)})))`;
}
