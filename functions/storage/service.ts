import { and, count, eq, inArray, sql, sum } from "drizzle-orm";
import { assets, defaultStorageId, groups, storages, uploads, users, variants, type Storage } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAssets } from "../assets/guard";
import { requireAccess, requireOwned } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert, insertWithEvent } from "../lib/events";
import { newId } from "../lib/ids";
import { decryptCredentials, encryptCredentials } from "../lib/storage/secrets";
import { ensureDefaultStorage, getStorage } from "../lib/storage";
import type { z } from "@hono/zod-openapi";
import type { createStorageBody, updateStorageBody } from "../../shared/storage/schemas";
import { assertStorageExists, resolveAssetStorage, resolveGroupStorage, resolveUserStorage, type StorageChoice } from "./resolve";

export const storageOut = (s: Storage) => ({
  storage_id: s.storageId,
  storage_name: s.storageName,
  kind: s.kind,
  storage_setup: s.setup,
  has_credentials: s.credentialsEnc !== null,
  is_default: s.storageId === defaultStorageId,
  ctime: s.ctime,
  mtime: s.mtime,
});

export async function createStorage(db: Db, env: Env, auth: AuthUser, body: z.infer<typeof createStorageBody>) {
  const now = nowSeconds();
  const creds =
    body.user && body.passwd ? await encryptCredentials(env, { user: body.user, passwd: body.passwd, token: body.token }) : null;
  const row: Storage = {
    storageId: newId(),
    storageName: body.storage_name,
    kind: body.kind,
    setup: body.storage_setup,
    credentialsEnc: creds,
    ctime: now,
    mtime: now,
  };
  await insertWithEvent(db, storages, row, {
    kind: "storage.create",
    userId: auth.userId,
    entityType: "storage",
    entityId: row.storageId,
    data: { name: row.storageName, kind: row.kind },
  });
  return storageOut(row);
}

/** Endpoints, buckets and regions are for admins: to others they only map the installation. */
export async function listStorages(db: Db, auth: AuthUser) {
  await ensureDefaultStorage(db);
  const rows = (await db.select().from(storages).orderBy(storages.ctime)).map(storageOut);
  return auth.isAdmin ? rows : rows.map(({ storage_id, storage_name, is_default }) => ({ storage_id, storage_name, is_default }));
}

export async function updateStorage(db: Db, env: Env, auth: AuthUser, storageId: string, body: z.infer<typeof updateStorageBody>) {
  const current = await getStorage(db, storageId);
  let creds = current.credentialsEnc;
  if (body.clear_credentials) creds = null;
  else if (body.user !== undefined || body.passwd !== undefined || body.token !== undefined) {
    // Sealed under another key (JWT_SECRET rotated, STORAGE_KEY set later) they cannot be read: new ones replace them.
    const old = creds ? await decryptCredentials(env, creds).catch(() => null) : null;
    const user = body.user ?? old?.user;
    const passwd = body.passwd ?? old?.passwd;
    if (!user || !passwd)
      throw new ApiError("validation", "Неверные данные: нужны user и passwd", [
        { field: !user ? "user" : "passwd", message: "обязательное поле" },
      ]);
    creds = await encryptCredentials(env, { user, passwd, token: body.token === null ? undefined : (body.token ?? old?.token) });
  }
  const setup = body.storage_setup ? { ...current.setup, ...body.storage_setup } : current.setup;
  if (current.kind === "s3" && (!setup.url || !setup.bucket || !creds))
    throw new ApiError("bad_request", "Для S3 нужны url, bucket и учётные данные");
  await db.batch([
    db
      .update(storages)
      .set({ storageName: body.storage_name ?? current.storageName, setup, credentialsEnc: creds, mtime: nowSeconds() })
      .where(eq(storages.storageId, storageId)),
    eventInsert(db, {
      kind: "storage.update",
      userId: auth.userId,
      entityType: "storage",
      entityId: storageId,
      data: {
        name: body.storage_name,
        setup: body.storage_setup,
        credentials: body.clear_credentials ? "cleared" : body.user || body.passwd ? "changed" : "kept",
      },
    }),
  ]);
  return storageOut(await getStorage(db, storageId));
}

/** Bytes and object counts per storage, from the variant rows (one GROUP BY, no bucket listing). */
export async function storageUsage(db: Db) {
  const [list, used, previews, pending] = await db.batch([
    db.select().from(storages),
    db
      .select({ id: variants.storageId, bytes: sum(variants.contentSize), objects: count() })
      .from(variants)
      .groupBy(variants.storageId),
    db
      .select({ id: variants.previewStorageId, objects: count() })
      .from(variants)
      .where(sql`${variants.previewKey} IS NOT NULL`)
      .groupBy(variants.previewStorageId),
    db
      .select({ id: uploads.storageId, n: count() })
      .from(uploads)
      .where(inArray(uploads.state, ["active", "completing"]))
      .groupBy(uploads.storageId),
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

/** Which storage an entity's bytes go to and why (functions/storage/resolve.ts has the one chain). */
export async function storageForEntity(db: Db, auth: AuthUser, id: string) {
  const [asset, group, user] = await db.batch([
    db.select({ id: assets.assetId }).from(assets).where(eq(assets.assetId, id)),
    db.select({ id: groups.groupId }).from(groups).where(eq(groups.groupId, id)),
    db.select({ id: users.userId }).from(users).where(eq(users.userId, id)),
  ]);
  let choice: StorageChoice;
  if (asset[0]) {
    await requireAssets(db, auth, "read", [id]);
    choice = await resolveAssetStorage(db, id);
  } else if (group[0]) {
    await requireAccess(db, auth, "read", [id], { types: ["group"] });
    choice = await resolveGroupStorage(db, id);
  } else if (user[0]) {
    // A user's storage is theirs (and admins') to know: anyone else is told the id does not exist.
    await requireOwned(db, auth, "read", "user", [id]);
    choice = await resolveUserStorage(db, id);
  } else throw new ApiError("not_found", "Объект не найден");
  const s = await getStorage(db, choice.storageId);
  return { entity_id: id, storage_id: s.storageId, storage_name: s.storageName, source: choice.source };
}

export async function setAssetStorage(db: Db, auth: AuthUser, assetId: string, storageId: string | null) {
  await requireAssets(db, auth, "update", [assetId]);
  await assertStorageExists(db, storageId, "storage_id");
  await db.batch([
    db
      .update(assets)
      .set({ defaultStorage: storageId, mtime: nowSeconds() })
      .where(and(eq(assets.assetId, assetId))),
    eventInsert(db, {
      kind: "asset.storage",
      userId: auth.userId,
      entityType: "asset",
      entityId: assetId,
      data: { storage_id: storageId },
    }),
  ]);
}
