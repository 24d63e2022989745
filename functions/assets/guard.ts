import { and, asc, eq, inArray } from "drizzle-orm";
import { assets, groupMembers, groups } from "../../db/schema";
import { accessContext, assetPermissions, requireAccess, resolveObjects } from "../lib/access";
import { groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import type { Permission } from "../lib/permissions";
import { idList } from "../lib/sql";

export const assetNotFound = () => new ApiError("not_found", "Файл не найден");

/**
 * Access to assets, through the permission engine (functions/lib/access.ts) on the specific ids.
 * The engine sees an asset through its group placements; an asset in no group yet (created without
 * in_group, or mid-upload) belongs to its owner alone, and to admins.
 */
export async function requireAssets(db: Db, auth: AuthUser, permission: Permission, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const rows = await db.select({ id: assets.assetId, owner: assets.owner }).from(assets).where(inArray(assets.assetId, idList(unique)));
  if (rows.length !== unique.length) throw assetNotFound();
  const resolved = await resolveObjects(db, unique);
  const placed = unique.filter((id) => resolved.get(id)?.type === "asset");
  for (const row of rows) {
    if (!placed.includes(row.id) && !auth.isAdmin && row.owner !== auth.userId) throw assetNotFound();
  }
  if (placed.length) await requireAccess(db, auth, permission, placed, { notFound: "Файл не найден", types: ["asset"] });
}

/** The caller's permissions on one asset (for asset_access), or null when it may not read it. */
export async function assetAccessList(db: Db, auth: AuthUser, assetId: string, owner: string): Promise<string[]> {
  const resolved = (await resolveObjects(db, [assetId])).get(assetId);
  if (resolved?.type !== "asset") return auth.isAdmin || owner === auth.userId ? ["read", "update", "delete", "download", "acl"] : [];
  return assetPermissions(await accessContext(db, auth), assetId, resolved.placements) ?? [];
}

/**
 * The live groups holding the asset that the caller can read, by name: another placement's id or
 * name would tell a reader about a group it may not see.
 */
export async function readablePlacements(db: Db, auth: AuthUser, assetId: string) {
  const ctx = await accessContext(db, auth);
  return db
    .select({ group_id: groups.groupId, group_name: groups.groupName, default_storage: groups.defaultStorage })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.groupId, groupMembers.groupId))
    .where(and(eq(groupMembers.elId, assetId), eq(groupMembers.elType, "asset"), groupFilter(ctx, groups)))
    .orderBy(asc(groups.nameKey), asc(groups.groupId))
    .all();
}
