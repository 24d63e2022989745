import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { assets, defaultStorageId, groupMembers, groups, users } from "../../db/schema";
import { pathIds } from "../lib/paths";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { idList } from "../lib/sql";

/**
 * The one answer to "where do an asset's bytes go" (docs/decisions/008-storages.md), used by the upload
 * start and by GET /api/storage/for-entity: the asset's own storage, then its groups' (each group's own
 * or its nearest ancestor's), then its owner's, then the system default. The choice belongs to the asset,
 * not to who asks or uploads, so every uploader of one asset writes to the same place.
 */
export type StorageSource = "asset" | "group" | "user" | "default";
export interface StorageChoice {
  storageId: string;
  source: StorageSource;
}

const fallback = (): StorageChoice => ({ storageId: defaultStorageId, source: "default" });

/** The nearest group with a default storage on any of these paths (tried in order, each walked up from its end). */
export async function nearestGroupStorage(db: Db, paths: string[]): Promise<{ storageId: string; groupId: string } | null> {
  const chains = paths.map(pathIds);
  const ids = [...new Set(chains.flat())];
  if (ids.length === 0) return null;
  const rows = await db
    .select({ id: groups.groupId, s: groups.defaultStorage })
    .from(groups)
    .where(and(inArray(groups.groupId, idList(ids)), isNull(groups.deletedAt)));
  const byId = new Map(rows.map((r) => [r.id, r.s]));
  for (const chain of chains) {
    const hit = [...chain].reverse().find((g) => byId.get(g));
    if (hit) return { storageId: byId.get(hit)!, groupId: hit };
  }
  return null;
}

/**
 * For an asset. `toGroup` (an upload's target group) is tried before the groups already holding the asset;
 * those are tried by name, so the answer is stable when an asset sits in several groups.
 */
export async function resolveAssetStorage(db: Db, assetId: string, toGroup?: string): Promise<StorageChoice> {
  const [[asset], target, places, [owner]] = await db.batch([
    db.select({ s: assets.defaultStorage }).from(assets).where(eq(assets.assetId, assetId)),
    db
      .select({ path: groups.path })
      .from(groups)
      .where(and(eq(groups.groupId, toGroup ?? ""), isNull(groups.deletedAt))),
    db
      .select({ path: groups.path })
      .from(groupMembers)
      .innerJoin(groups, and(eq(groups.groupId, groupMembers.groupId), isNull(groups.deletedAt)))
      .where(and(eq(groupMembers.elId, assetId), eq(groupMembers.elType, "asset")))
      .orderBy(asc(groups.nameKey), asc(groups.groupId)),
    db.select({ s: users.defaultStorage }).from(users).innerJoin(assets, eq(assets.owner, users.userId)).where(eq(assets.assetId, assetId)),
  ]);
  if (!asset) throw new ApiError("not_found", "Файл не найден");
  if (asset.s) return { storageId: asset.s, source: "asset" };
  const group = await nearestGroupStorage(
    db,
    [...target, ...places].map((g) => g.path),
  );
  if (group) return { storageId: group.storageId, source: "group" };
  if (owner?.s) return { storageId: owner.s, source: "user" };
  return fallback();
}

/** For a group: its own storage or its nearest ancestor's, else the system default. */
export async function resolveGroupStorage(db: Db, groupId: string): Promise<StorageChoice> {
  const row = await db.select({ path: groups.path }).from(groups).where(eq(groups.groupId, groupId)).get();
  const s = row ? await nearestGroupStorage(db, [row.path]) : null;
  return s ? { storageId: s.storageId, source: "group" } : fallback();
}

/** For a user: their own default storage, else the system default. */
export async function resolveUserStorage(db: Db, userId: string): Promise<StorageChoice> {
  const row = await db.select({ s: users.defaultStorage }).from(users).where(eq(users.userId, userId)).get();
  return row?.s ? { storageId: row.s, source: "user" } : fallback();
}

/** In lib (functions/lib/storage/index.ts) since users, below storage, check it too. */
export { assertStorageExists } from "../lib/storage";
