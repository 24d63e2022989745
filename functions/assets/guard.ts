import { and, asc, eq } from "drizzle-orm";
import { groupMembers, groups } from "../../db/schema";
import { accessContext, entityAccess, requireAccess } from "../lib/access";
import { groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import type { Permission } from "../../shared/lib/permissions";

export const assetNotFound = () => new ApiError("not_found", "Файл не найден");

/**
 * Access to assets, through the permission engine (functions/lib/access.ts) on the specific ids; the
 * engine also decides the rights on an asset in no group (assetPermissions).
 */
export async function requireAssets(db: Db, auth: AuthUser, permission: Permission, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length) await requireAccess(db, auth, permission, unique, { notFound: "Файл не найден", types: ["asset"] });
}

/** The caller's permissions on one asset it may read (for asset_access). */
export async function assetAccessList(db: Db, auth: AuthUser, assetId: string): Promise<Permission[]> {
  return (await entityAccess(db, auth, assetId)).perms;
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
