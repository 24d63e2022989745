import { and, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AccessContext } from "./access-context";
import { placedAnywhere } from "./access-objects";
import type { Permission } from "../../shared/lib/permissions";
import { idList, inAnySubtree, literal } from "./sql";

/**
 * The engine's answer to "which of these may the caller read (or do P on)", as SQL for the WHERE of
 * a list query, so lists filter in the database and pages stay pages. Same semantics as
 * groupPermissions/assetPermissions in ./access-rules.ts (docs/decisions/003-permission-engine.md).
 */

const grantsWith = (ctx: AccessContext, p: Permission) =>
  ctx.grants.filter((g) => p === "read" || g.acl.includes(p) || g.acl.includes("superuser")).map((g) => g.path);

/**
 * Live groups (columns of `groups` or an alias of it) on which the caller has `permission`.
 * `within`: the rows are known to lie in the subtree at that path, so rules above it are settled
 * once here rather than per row — a page of a readable group's children then needs no path check.
 */
export function groupFilter(
  ctx: AccessContext,
  cols: { path: SQLWrapper; deletedAt: SQLWrapper },
  permission: Permission = "read",
  within?: string,
): SQL {
  const live = sql`${cols.deletedAt} IS NULL`;
  if (ctx.admin) return live;
  const covers = (p: string) => within?.startsWith(p);
  const below = (p: string) => within === undefined || p.startsWith(within);
  const grants = grantsWith(ctx, permission);
  if (within !== undefined && ctx.denyPaths.some(covers)) return sql`0`;
  const parts = [live];
  if (!grants.some(covers)) parts.push(inAnySubtree(cols.path, grants.filter(below)));
  const denies = ctx.denyPaths.filter(below);
  if (denies.length) parts.push(sql`NOT ${inAnySubtree(cols.path, denies)}`);
  if (ctx.chroot && !ctx.chroot.some(covers)) parts.push(inAnySubtree(cols.path, ctx.chroot.filter(below)));
  return and(...parts)!;
}

/** Live placements of the asset in `assetId` whose group path satisfies `where`. */
export const placementWhere = (assetId: SQLWrapper, where: SQL) => sql`EXISTS (SELECT 1 FROM group_members pm
  JOIN groups pg ON pg.group_id = pm.group_id AND pg.deleted_at IS NULL
  WHERE pm.el_id = ${assetId} AND pm.el_type = 'asset' AND ${where})`;

const pgPath = sql.raw("pg.path");

/**
 * What stops an asset that is known to sit in a group the caller can read: an asset deny, or another
 * placement (inside the chroot) under a denied group. `1` when the caller has no deny at all — the
 * common case, so a page of a group's assets costs nothing extra. With group denies it is a NOT IN
 * over the assets placed in the denied subtrees: an uncorrelated subquery SQLite builds once per
 * statement (index ranges on groups.path, then the members' primary key), so a deep OFFSET costs one
 * probe of that small set per skipped row instead of a placement join per row.
 */
export function assetDenyFilter(ctx: AccessContext, assetId: SQLWrapper): SQL {
  if (ctx.admin) return sql`1`;
  const parts: SQL[] = [];
  if (ctx.assetDenies.size) parts.push(sql`${assetId} NOT IN ${idList([...ctx.assetDenies])}`);
  if (ctx.denyPaths.length) parts.push(sql`${assetId} NOT IN (${deniedAssets(ctx)})`);
  return parts.length ? and(...parts)! : sql`1`;
}

/**
 * The complement of assetDenyFilter: the caller is denied this asset. Written as IN terms joined by OR,
 * so counting the denied members of one group looks each denied id up by key instead of testing every
 * member. `0` for callers without denies.
 */
export function assetDenied(ctx: AccessContext, assetId: SQLWrapper): SQL {
  if (ctx.admin) return sql`0`;
  const parts: SQL[] = [];
  if (ctx.assetDenies.size) parts.push(sql`${assetId} IN ${idList([...ctx.assetDenies])}`);
  if (ctx.denyPaths.length) parts.push(sql`${assetId} IN (${deniedAssets(ctx)})`);
  return parts.length ? sql`(${sql.join(parts, sql` OR `)})` : sql`0`;
}

/**
 * Assets with a live placement (inside the chroot) under a group the caller is denied. CROSS JOIN
 * and INDEXED BY pin the plan (denied groups by path range, then their members by index): statistics
 * of one group holding most assets otherwise make SQLite build an automatic index over all of
 * group_members on every statement.
 */
export function deniedAssets(ctx: AccessContext): SQL {
  const denied = ctx.chroot
    ? and(inAnySubtree(pgPath, ctx.denyPaths), inAnySubtree(pgPath, ctx.chroot))!
    : inAnySubtree(pgPath, ctx.denyPaths);
  return sql`SELECT pm.el_id FROM groups pg
    CROSS JOIN group_members pm INDEXED BY group_members_page_idx ON pm.group_id = pg.group_id AND pm.el_type = 'asset'
    WHERE pg.deleted_at IS NULL AND ${denied}`;
}

/** The caller's own assets that are in no group at all: theirs alone, with every asset right (assetPermissions). */
const ownUnplaced = (ctx: AccessContext, assetId: SQLWrapper) =>
  sql`(${assetId} IN (SELECT oa.asset_id FROM assets oa WHERE oa.owner = ${ctx.userId}) AND NOT ${placedAnywhere(assetId)})`;

/**
 * Assets (by id column) on which the caller has `permission`, wherever they are: the SQL twin of
 * assetPermissions in ./access-rules.ts, for asset lists. Admins pass for every asset.
 */
export function assetFilter(ctx: AccessContext, assetId: SQLWrapper, permission: Permission = "read"): SQL {
  if (ctx.admin) return sql`1`;
  const inChroot = ctx.chroot ? inAnySubtree(pgPath, ctx.chroot) : sql`1`;
  const direct = [...ctx.assetGrants].filter(([, acl]) => permission === "read" || acl.includes(permission) || acl.includes("superuser"));
  const viaGroup = placementWhere(assetId, and(inAnySubtree(pgPath, grantsWith(ctx, permission)), inChroot)!);
  const viaRule = direct.length
    ? sql`(${assetId} IN ${idList(direct.map(([id]) => id))} AND ${placementWhere(assetId, inChroot)})`
    : sql`0`;
  return sql`((${viaGroup} OR ${viaRule}) AND ${assetDenyFilter(ctx, assetId)} OR ${ownUnplaced(ctx, assetId)})`;
}

/**
 * Rows of a shared object the caller may see: owned by the caller, or named by a share to the caller or to one of
 * its teams (`shares`: a subquery's table with subj_type, subj_id and the object's id in `key`). Admins see all.
 */
export function ownedOrShared(
  ctx: AccessContext,
  cols: { id: SQLWrapper; owner: SQLWrapper },
  shares: { table: string; key: string },
): SQL {
  if (ctx.admin) return sql`1`;
  const me = literal(ctx.userId);
  const teams = ctx.teams.length ? sql` OR (subj_type = 'team' AND subj_id IN ${idList(ctx.teams)})` : sql``;
  return sql`(${cols.owner} = ${me} OR ${cols.id} IN (SELECT ${sql.identifier(shares.key)} FROM ${sql.identifier(shares.table)}
    WHERE (subj_type = 'user' AND subj_id = ${me})${teams}))`;
}
