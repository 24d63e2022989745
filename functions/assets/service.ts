import { and, desc, eq, inArray } from "drizzle-orm";
import { assetClasses, assets, fieldValues, groupMembers, uploads, variants, versions, type Asset } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAccess } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { unlinkEntities } from "../lib/entity-links";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { idList } from "../lib/sql";
import { driverFor, getStorage } from "../lib/storage";
import { tagsOf } from "../tags/of-entity";
import { assetAccessList, assetNotFound, readablePlacements, requireAssets } from "./guard";
import type { CreateAssetBody, PatchAssetBody } from "../../shared/assets/schemas";

async function checkClass(db: Db, classId: string | null | undefined) {
  if (!classId) return;
  const found = await db.select({ id: assetClasses.classId }).from(assetClasses).where(eq(assetClasses.classId, classId)).get();
  if (!found)
    throw new ApiError("validation", "Неверные данные: «asset_class»: нет такого класса", [
      { field: "asset_class", message: "нет такого класса" },
    ]);
}

/** Creates assets (one batch, one event each); in_group needs create on that group. */
export async function createAssets(db: Db, auth: AuthUser, items: CreateAssetBody[]) {
  const groupIds = [...new Set(items.flatMap((i) => (i.in_group ? [i.in_group] : [])))];
  if (groupIds.length) await requireAccess(db, auth, "create", groupIds, { notFound: "Группа не найдена", types: ["group"] });
  for (const c of new Set(items.map((i) => i.asset_class))) await checkClass(db, c);
  const now = nowSeconds();
  const rows = items.map((i) => ({
    assetId: newId(),
    name: i.asset_name,
    owner: auth.userId,
    creator: auth.userId,
    mimetype: i.asset_mime,
    classId: i.asset_class ?? null,
    ctime: now,
    mtime: now,
    atime: now,
    group: i.in_group,
  }));
  // D1 binds at most 100 parameters per statement: an asset row takes 11, so 8 rows per INSERT.
  const values = rows.map(({ group: _g, ...r }) => r);
  const inserts = Array.from({ length: Math.ceil(values.length / 8) }, (_, i) => db.insert(assets).values(values.slice(i * 8, i * 8 + 8)));
  await db.batch([
    inserts[0],
    ...inserts.slice(1),
    ...rows.flatMap((r) => [
      ...(r.group ? [db.insert(groupMembers).values({ groupId: r.group, elId: r.assetId, elType: "asset" as const, ctime: now })] : []),
      eventInsert(db, {
        kind: "asset.create",
        userId: auth.userId,
        entityType: "asset",
        entityId: r.assetId,
        data: { name: r.name, group: r.group ?? null },
      }),
    ]),
  ]);
  return rows.map((r) => ({ asset_id: r.assetId, ctime: r.ctime }));
}

export async function loadAsset(db: Db, assetId: string): Promise<Asset> {
  const row = await db.select().from(assets).where(eq(assets.assetId, assetId)).get();
  if (!row) throw assetNotFound();
  return row;
}

/** The asset card: its fields, its readable groups, the caller's permissions and the latest version's variants, after a read check. */
export async function getAsset(db: Db, auth: AuthUser, assetId: string) {
  // The caller's permissions, or 404 when it may not read the asset.
  const access = await assetAccessList(db, auth, assetId);
  const a = await loadAsset(db, assetId);
  const [links, latest, tags] = await Promise.all([
    readablePlacements(db, auth, assetId).then((r) => r.map((g) => g.group_id)),
    latestVersion(db, assetId),
    tagsOf(db, assetId),
  ]);
  const vars =
    latest === null
      ? []
      : await db
          .select({ id: variants.variantId, name: variants.name, type: variants.variantType })
          .from(variants)
          .where(and(eq(variants.assetId, assetId), eq(variants.version, latest)));
  return {
    asset_id: a.assetId,
    name: a.name,
    owner: a.owner,
    creator: a.creator,
    ctime: a.ctime,
    mtime: a.mtime,
    atime: a.atime,
    mimetype: a.mimetype,
    tags,
    default_storage: a.defaultStorage,
    class: a.classId,
    asset_links: links,
    asset_access: access,
    asset_latest_version: latest,
    asset_latest_version_variants: vars,
  };
}

export async function latestVersion(db: Db, assetId: string): Promise<number | null> {
  const row = await db
    .select({ v: versions.version })
    .from(versions)
    .where(eq(versions.assetId, assetId))
    .orderBy(desc(versions.version))
    .limit(1)
    .get();
  return row?.v ?? null;
}

export async function patchAsset(db: Db, auth: AuthUser, assetId: string, body: PatchAssetBody) {
  await requireAssets(db, auth, "update", [assetId]);
  await checkClass(db, body.asset_class);
  const set = {
    ...(body.asset_name !== undefined ? { name: body.asset_name } : {}),
    ...(body.asset_mime !== undefined ? { mimetype: body.asset_mime } : {}),
    ...(body.asset_class !== undefined ? { classId: body.asset_class } : {}),
    mtime: nowSeconds(),
  };
  await db.batch([
    db.update(assets).set(set).where(eq(assets.assetId, assetId)),
    eventInsert(db, { kind: "asset.update", userId: auth.userId, entityType: "asset", entityId: assetId, data: body }),
  ]);
  return getAsset(db, auth, assetId);
}

/** A variant's stored objects: its bytes and its preview picture. */
export const storedColumns = {
  storageId: variants.storageId,
  key: variants.objectKey,
  preview: variants.previewKey,
  previewStorage: variants.previewStorageId,
};
type Stored = { storageId: string; key: string; preview: string | null; previewStorage: string | null };

/** Deletes variants' objects from their storages, once their rows are gone: a failed delete leaves an orphan, never a dangling row. */
export async function deleteStoredObjects(db: Db, env: Env, stored: Stored[]) {
  const byStorage = new Map<string, string[]>();
  for (const v of stored) {
    byStorage.set(v.storageId, [...(byStorage.get(v.storageId) ?? []), v.key]);
    if (v.preview && v.previewStorage) byStorage.set(v.previewStorage, [...(byStorage.get(v.previewStorage) ?? []), v.preview]);
  }
  for (const [storageId, keys] of byStorage) {
    const driver = await driverFor(env, await getStorage(db, storageId)).catch(() => null);
    await driver?.delete(keys).catch((err) => console.error("object delete failed", storageId, err));
  }
}

/**
 * Deletes assets with their versions, variants, placements and unfinished uploads; the stored
 * objects are removed after the rows (a failed object delete leaves an orphan, never a dangling row).
 */
export async function deleteAssets(db: Db, env: Env, auth: AuthUser | null, ids: string[], opts: { skipCheck?: boolean } = {}) {
  if (auth && !opts.skipCheck) await requireAssets(db, auth, "delete", ids);
  const list = idList(ids);
  const [vars, ups] = await db.batch([
    db.select(storedColumns).from(variants).where(inArray(variants.assetId, list)),
    db
      .select()
      .from(uploads)
      .where(and(inArray(uploads.assetId, list), inArray(uploads.state, ["active", "completing"]))),
  ]);
  await db.batch([
    db.delete(variants).where(inArray(variants.assetId, list)),
    db.delete(versions).where(inArray(versions.assetId, list)),
    // Its field values go with it (the entity is the asset; nothing else can reach them).
    db.delete(fieldValues).where(and(inArray(fieldValues.entityId, list), eq(fieldValues.entityType, "asset"))),
    db.delete(groupMembers).where(and(inArray(groupMembers.elId, list), eq(groupMembers.elType, "asset"))),
    ...unlinkEntities(db, list),
    db
      .update(uploads)
      .set({ state: "aborted", mtime: nowSeconds() })
      .where(and(inArray(uploads.assetId, list), inArray(uploads.state, ["active", "completing"]))),
    db.delete(assets).where(inArray(assets.assetId, list)),
    ...ids.map((id) => eventInsert(db, { kind: "asset.delete", userId: auth?.userId ?? null, entityType: "asset", entityId: id })),
  ]);
  await deleteStoredObjects(db, env, vars);
  for (const u of ups) {
    const driver = await driverFor(env, await getStorage(db, u.storageId)).catch(() => null);
    await driver?.abortMultipart(u.objectKey, u.multipartId);
  }
}
