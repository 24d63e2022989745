import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { subtreeEnd } from "../lib/sql";

/**
 * «Удалённые» (docs/decisions/056-trash-and-admin-actions.md): the groups deleted on their own (each
 * is its delete's root; a subgroup deleted with its parent comes back with it, so it is no row of
 * its own), newest first. Users see what they deleted; admins see everything.
 */

/** Assets placed in the subtree at `path` and in no group outside it: what a purge of that subtree deletes. */
export const purgedAssetsSql = (path: string) => {
  const end = subtreeEnd(path);
  return sql`SELECT DISTINCT gm.el_id AS asset_id FROM group_members gm JOIN groups g ON g.group_id = gm.group_id
    WHERE gm.el_type = 'asset' AND g.path >= ${path} AND g.path < ${end}
      AND NOT EXISTS (SELECT 1 FROM group_members o JOIN groups og ON og.group_id = o.group_id
        WHERE o.el_type = 'asset' AND o.el_id = gm.el_id AND NOT (og.path >= ${path} AND og.path < ${end}))`;
};

export async function purgedAssets(db: Db, path: string) {
  return (await db.all<{ asset_id: string }>(purgedAssetsSql(path))).map((r) => r.asset_id);
}

type Row = {
  group_id: string;
  group_name: string;
  parent_id: string | null;
  parent_name: string | null;
  path: string;
  deleted_at: number;
  deleted_by: string | null;
  deleted_by_name: string | null;
};

export async function listDeleted(db: Db, auth: AuthUser, q: { skip: number; take: number }) {
  const mine = auth.isAdmin ? sql`1` : sql`g.deleted_by = ${auth.userId}`;
  const rows = await db.all<Row>(sql`
    SELECT g.group_id, g.group_name, g.parent_id, p.group_name AS parent_name, g.path, g.deleted_at, g.deleted_by,
      u.user_name AS deleted_by_name
    FROM groups g LEFT JOIN groups p ON p.group_id = g.parent_id LEFT JOIN users u ON u.user_id = g.deleted_by
    WHERE g.deleted_at IS NOT NULL AND g.deleted_root = g.group_id AND ${mine}
    ORDER BY g.deleted_at DESC, g.group_id LIMIT ${q.take} OFFSET ${q.skip}`);
  return Promise.all(rows.map(async ({ path, ...row }) => ({ ...row, ...(await purgeSize(db, path)) })));
}

/** What a purge of the subtree at `path` removes: its groups, and the assets (with their bytes) placed nowhere else. */
export async function purgeSize(db: Db, path: string) {
  const end = subtreeEnd(path);
  const [size] = await db.all<{ groups: number; purge_assets: number; purge_bytes: number }>(sql`
    SELECT (SELECT count(*) FROM groups WHERE path >= ${path} AND path < ${end}) AS groups,
      (SELECT count(*) FROM (${purgedAssetsSql(path)})) AS purge_assets,
      (SELECT coalesce(sum(v.content_size), 0) FROM variants v WHERE v.asset_id IN (SELECT asset_id FROM (${purgedAssetsSql(path)}))) AS purge_bytes`);
  return { groups: Number(size?.groups ?? 0), purge_assets: Number(size?.purge_assets ?? 0), purge_bytes: Number(size?.purge_bytes ?? 0) };
}
