import { and, count, eq, inArray, sql, sum } from "drizzle-orm";
import { assets, defaultStorageId, groups, storages, uploads, users, variants, type Storage } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { readablePlacements, requireAssets } from "../assets/guard";
import { requireAccess } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { decryptCredentials, encryptCredentials } from "../lib/storage/secrets";
import { ensureDefaultStorage, getStorage } from "../lib/storage";
import type { z } from "@hono/zod-openapi";
import type { createStorageBody, updateStorageBody } from "./schemas";

export const storageOut = (s: Storage) => ({
  storage_id: s.storageId, storage_name: s.storageName, kind: s.kind, storage_setup: s.setup,
  has_credentials: s.credentialsEnc !== null, is_default: s.storageId === defaultStorageId, ctime: s.ctime, mtime: s.mtime,
});

export async function createStorage(db: Db, env: Env, auth: AuthUser, body: z.infer<typeof createStorageBody>) {
  const now = nowSeconds();
  const creds = body.user && body.passwd ? await encryptCredentials(env, { user: body.user, passwd: body.passwd, token: body.token }) : null;
  const row: Storage = { storageId: newId(), storageName: body.storage_name, kind: body.kind, setup: body.storage_setup, credentialsEnc: creds, ctime: now, mtime: now };
  await db.batch([
    db.insert(storages).values(row),
    eventInsert(db, { kind: "storage.create", userId: auth.userId, entityType: "storage", entityId: row.storageId, data: { name: row.storageName, kind: row.kind } }),
  ]);
  return storageOut(row);
}

export async function listStorages(db: Db) {
  await ensureDefaultStorage(db);
  return (await db.select().from(storages).orderBy(storages.ctime)).map(storageOut);
}

export async function updateStorage(db: Db, env: Env, auth: AuthUser, storageId: string, body: z.infer<typeof updateStorageBody>) {
  const current = await getStorage(db, storageId);
  let creds = current.credentialsEnc;
  if (body.clear_credentials) creds = null;
  else if (body.user !== undefined || body.passwd !== undefined || body.token !== undefined) {
    const old = creds ? await decryptCredentials(env, creds) : null;
    const user = body.user ?? old?.user;
    const passwd = body.passwd ?? old?.passwd;
    if (!user || !passwd) throw new ApiError("validation", "Неверные данные: нужны user и passwd", [{ field: !user ? "user" : "passwd", message: "обязательное поле" }]);
    creds = await encryptCredentials(env, { user, passwd, token: body.token === null ? undefined : (body.token ?? old?.token) });
  }
  const setup = body.storage_setup ? { ...current.setup, ...body.storage_setup } : current.setup;
  if (current.kind === "s3" && (!setup.url || !setup.bucket || !creds)) throw new ApiError("bad_request", "Для S3 нужны url, bucket и учётные данные");
  await db.batch([
    db.update(storages).set({ storageName: body.storage_name ?? current.storageName, setup, credentialsEnc: creds, mtime: nowSeconds() }).where(eq(storages.storageId, storageId)),
    eventInsert(db, { kind: "storage.update", userId: auth.userId, entityType: "storage", entityId: storageId, data: { name: body.storage_name, setup: body.storage_setup, credentials: body.clear_credentials ? "cleared" : body.user || body.passwd ? "changed" : "kept" } }),
  ]);
  return storageOut(await getStorage(db, storageId));
}

/** Bytes and object counts per storage, from the variant rows (one GROUP BY, no bucket listing). */
export async function storageUsage(db: Db) {
  const [list, used, previews, pending] = await db.batch([
    db.select().from(storages),
    db.select({ id: variants.storageId, bytes: sum(variants.contentSize), objects: count() }).from(variants).groupBy(variants.storageId),
    db.select({ id: variants.previewStorageId, objects: count() }).from(variants).where(sql`${variants.previewKey} IS NOT NULL`).groupBy(variants.previewStorageId),
    db.select({ id: uploads.storageId, n: count() }).from(uploads).where(inArray(uploads.state, ["active", "completing"])).groupBy(uploads.storageId),
  ]);
  const all = list.some((s) => s.storageId === defaultStorageId) ? list : [await ensureDefaultStorage(db), ...list];
  return all.map((s) => ({
    storage_id: s.storageId,
    storage_name: s.storageName,
    bytes: Number(used.find((u) => u.id === s.storageId)?.bytes ?? 0),
    objects: (used.find((u) => u.id === s.storageId)?.objects ?? 0) + (previews.find((p) => p.id === s.storageId)?.objects ?? 0),
    uploading: pending.find((p) => p.id === s.storageId)?.n ?? 0,
  }));
}

/** Which storage an entity's bytes go to: asset, then group, then user, then the system default. */
export async function storageForEntity(db: Db, auth: AuthUser, id: string) {
  const [asset, group, user] = await db.batch([
    db.select({ s: assets.defaultStorage }).from(assets).where(eq(assets.assetId, id)),
    db.select({ s: groups.defaultStorage }).from(groups).where(eq(groups.groupId, id)),
    db.select({ s: users.defaultStorage }).from(users).where(eq(users.userId, id)),
  ]);
  let chain: [string | null | undefined, "asset" | "group" | "user"][];
  if (asset[0]) {
    await requireAssets(db, auth, "read", [id]);
    // Only groups the caller can read count: another placement's storage would hint at a hidden group.
    const placement = (await readablePlacements(db, auth, id)).filter((g) => g.default_storage).map((g) => ({ s: g.default_storage }));
    const owner = await db.select({ s: users.defaultStorage }).from(users).innerJoin(assets, eq(assets.owner, users.userId)).where(eq(assets.assetId, id));
    chain = [[asset[0].s, "asset"], [placement[0]?.s, "group"], [owner[0]?.s, "user"]];
  } else if (group[0]) {
    await requireAccess(db, auth, "read", [id], { types: ["group"] });
    chain = [[group[0].s, "group"]];
  } else if (user[0]) {
    if (id !== auth.userId && !auth.isAdmin) throw new ApiError("not_found", "Объект не найден");
    chain = [[user[0].s, "user"]];
  } else throw new ApiError("not_found", "Объект не найден");
  const [storageId, source] = chain.find(([s]) => s) ?? [defaultStorageId, "default" as const];
  const s = await getStorage(db, storageId!);
  return { entity_id: id, storage_id: s.storageId, storage_name: s.storageName, source };
}

export async function setAssetStorage(db: Db, auth: AuthUser, assetId: string, storageId: string | null) {
  await requireAssets(db, auth, "update", [assetId]);
  if (storageId) await getStorage(db, storageId);
  await db.batch([
    db.update(assets).set({ defaultStorage: storageId, mtime: nowSeconds() }).where(and(eq(assets.assetId, assetId))),
    eventInsert(db, { kind: "asset.storage", userId: auth.userId, entityType: "asset", entityId: assetId, data: { storage_id: storageId } }),
  ]);
}
