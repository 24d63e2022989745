import { and, eq, inArray, max, sql } from "drizzle-orm";
import { assets, events, uploadParts, uploads, versions, type Upload } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { loadAsset } from "../assets/service";
import { requireAssets } from "../assets/guard";
import { requireAccess, requireOwned } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventRow } from "../lib/events";
import { newId } from "../lib/ids";
import { driverFor, getStorage } from "../lib/storage";
import { defaultPartSize, maxPartSize, maxParts, MiB, type startBody } from "../../shared/uploads/schemas";
import { signUrl } from "../lib/sign";
import { fitsQuota, quotaExceeded, quotaOf } from "../lib/quota";
import { insertRowWhen, literal } from "../lib/sql";
import { resolveAssetStorage } from "../storage/resolve";
import type { z } from "@hono/zod-openapi";
import { storageFailure } from "../lib/storage/failure";

/** An upload with no activity for this long is abandoned: the cron aborts it (docs/decisions/007-uploads.md). */
export const idleSeconds = 24 * 3600;
export const targetTtlSeconds = 3600;

const uploadNotFoundMessage = "Загрузка не найдена";

export function partSizeFor(size: number, wanted?: number) {
  let part = wanted ?? defaultPartSize;
  if (Math.ceil(size / part) > maxParts) part = Math.ceil(size / maxParts / MiB) * MiB;
  if (part > maxPartSize) throw new ApiError("payload_too_large", "Файл слишком большой для загрузки");
  return { partSize: part, partCount: Math.max(1, Math.ceil(size / part)) };
}

export const expectedPartSize = (u: Pick<Upload, "size" | "partSize" | "partCount">, n: number) =>
  n < u.partCount ? u.partSize : u.size - u.partSize * (u.partCount - 1);

/**
 * Uploading changes the asset, so it needs update, with one exception: the first content of an asset its
 * caller made, which completes the creation that `create` on the group allowed (decision 015). The caller
 * must still read it (404 otherwise).
 */
async function requireUploadRight(db: Db, auth: AuthUser, assetId: string) {
  const [[asset], [anyVersion]] = await db.batch([
    db.select({ creator: assets.creator }).from(assets).where(eq(assets.assetId, assetId)),
    db.select({ v: versions.version }).from(versions).where(eq(versions.assetId, assetId)).limit(1),
  ]);
  const fillingOwnNewAsset = asset?.creator === auth.userId && !anyVersion;
  await requireAssets(db, auth, fillingOwnNewAsset ? "read" : "update", [assetId]);
}

export async function startUpload(db: Db, env: Env, auth: AuthUser, body: z.infer<typeof startBody>) {
  await requireUploadRight(db, auth, body.asset_id);
  // The target group picks the storage: it must be one the caller can see (404 like a missing one).
  if (body.to_group) await requireAccess(db, auth, "read", [body.to_group], { types: ["group"], notFound: "Группа не найдена" });
  const asset = await loadAsset(db, body.asset_id);
  const [[latest], [pending]] = await db.batch([
    db
      .select({ v: max(versions.version) })
      .from(versions)
      .where(eq(versions.assetId, asset.assetId)),
    db
      .select({ v: max(uploads.version) })
      .from(uploads)
      .where(and(eq(uploads.assetId, asset.assetId), inArray(uploads.state, ["active", "completing"]))),
  ]);
  let version = body.version;
  if (version !== undefined) {
    const exists = await db
      .select({ v: versions.version })
      .from(versions)
      .where(and(eq(versions.assetId, asset.assetId), eq(versions.version, version)))
      .get();
    if (!exists) throw new ApiError("not_found", `Версия ${version} не найдена`);
  }
  const newVersion = version === undefined;
  version ??= Math.max(latest?.v ?? 0, pending?.v ?? 0) + 1;
  const variantType = body.variant_type ?? (newVersion ? "initial" : "untyped");
  const { partSize, partCount } = partSizeFor(body.size, body.part_size);
  // Past the quota nothing is asked of the storage; the insert below checks again, atomically.
  const quota = await quotaOf(db, env, auth.userId);
  if (quota.limit !== null && quota.used + body.size > quota.limit) throw quotaExceeded(quota.used, quota.limit, body.size);
  // One chain for every uploader (functions/storage/resolve.ts); to_group is tried before the asset's groups.
  const storage = await getStorage(db, (await resolveAssetStorage(db, asset.assetId, body.to_group)).storageId);
  const driver = await driverFor(env, storage);
  const variantId = newId();
  const objectKey = `assets/${asset.assetId}/${variantId}`;
  const multipartId = await driver.createMultipart(objectKey, body.mime).catch((err: unknown) => {
    throw storageFailure(
      err,
      "unavailable",
      `Хранилище «${storage.storageName}» не приняло загрузку. Попробуйте позже или сообщите администратору.`,
    );
  });
  const now = nowSeconds();
  const row: Upload = {
    uploadId: newId(),
    assetId: asset.assetId,
    version,
    newVersion,
    // An asset made empty on purpose (decision 055) outlives a cancelled first upload; one made for the file does not.
    newAsset: (latest?.v ?? null) === null && !body.keep_asset,
    variantId,
    variantType,
    variantName: body.variant_name ?? null,
    storageId: storage.storageId,
    objectKey,
    multipartId,
    mode: driver.presigns ? "presigned" : "worker",
    size: body.size,
    partSize,
    partCount,
    fileName: body.name,
    mime: body.mime,
    sha256: body.sha256 ?? null,
    state: "active",
    workerBytes: 0,
    userId: auth.userId,
    ctime: now,
    mtime: now,
    expiresAt: now + idleSeconds,
  };
  let taken: unknown[];
  try {
    // The upload row goes in only while the user's stored and reserved bytes leave room for it, so parallel
    // starts cannot all pass the check above; its event only with it.
    [, , taken] = await db.batch([
      db.run(insertRowWhen(uploads, row, fitsQuota(env, auth.userId, body.size))),
      db.run(
        insertRowWhen(
          events,
          eventRow({
            kind: "upload.start",
            userId: auth.userId,
            entityType: "asset",
            entityId: asset.assetId,
            data: { upload_id: row.uploadId, version, size: body.size, name: body.name },
          }),
          sql`EXISTS (SELECT 1 FROM uploads WHERE upload_id = ${literal(row.uploadId)})`,
        ),
      ),
      db.select({ id: uploads.uploadId }).from(uploads).where(eq(uploads.uploadId, row.uploadId)),
    ]);
  } catch (err) {
    await driver.abortMultipart(objectKey, multipartId);
    if (/UNIQUE/i.test(String((err as Error)?.message) + String((err as { cause?: Error })?.cause?.message))) {
      throw new ApiError("conflict", `В версию ${version} уже идёт загрузка варианта «${variantType}»`);
    }
    throw err;
  }
  if (taken.length === 0) {
    await driver.abortMultipart(objectKey, multipartId);
    const now = await quotaOf(db, env, auth.userId);
    throw quotaExceeded(now.used, now.limit ?? 0, body.size);
  }
  return describe(row, []);
}

/** An upload belongs to its starter (and admins): anyone else is told it does not exist. */
export async function loadUpload(db: Db, auth: AuthUser, uploadId: string) {
  const [{ row }] = await requireOwned(db, auth, "read", "upload", [uploadId], { notFound: uploadNotFoundMessage });
  return row;
}

export function requireActive(u: Upload) {
  if (u.state === "completed") throw new ApiError("conflict", "Загрузка уже завершена");
  if (u.state === "aborted") throw new ApiError("gone", "Загрузка отменена");
  if (u.state !== "active") throw new ApiError("conflict", "Загрузка уже завершается");
}

export function requirePartNumber(u: Upload, n: number) {
  if (!Number.isInteger(n) || n < 1 || n > u.partCount) {
    throw new ApiError("bad_request", `Номер части ${n} вне диапазона 1…${u.partCount}`, [
      { field: "part", message: `от 1 до ${u.partCount}` },
    ]);
  }
}

export const partsOf = (db: Db, uploadId: string) =>
  db.select().from(uploadParts).where(eq(uploadParts.uploadId, uploadId)).orderBy(uploadParts.partNumber);

export function describe(u: Upload, parts: { partNumber: number; size: number; etag: string }[]) {
  const have = new Set(parts.map((p) => p.partNumber));
  return {
    upload_id: u.uploadId,
    asset_id: u.assetId,
    version: u.version,
    variant_id: u.variantId,
    variant_type: u.variantType,
    state: u.state,
    mode: u.mode,
    size: u.size,
    part_size: u.partSize,
    part_count: u.partCount,
    name: u.fileName,
    parts: parts.map((p) => ({ part: p.partNumber, size: p.size, etag: p.etag })),
    missing: Array.from({ length: u.partCount }, (_, i) => i + 1).filter((n) => !have.has(n)),
    worker_bytes: u.workerBytes,
    expires_at: u.expiresAt,
  };
}

export async function uploadStatus(db: Db, auth: AuthUser, uploadId: string) {
  const u = await loadUpload(db, auth, uploadId);
  return describe(u, await partsOf(db, uploadId));
}

/** Where to PUT each part: a presigned bucket URL, or the Worker's signed part URL (same client code either way). */
export async function partTargets(db: Db, env: Env, auth: AuthUser, uploadId: string, parts: number[], origin: string) {
  const u = await loadUpload(db, auth, uploadId);
  requireActive(u);
  for (const n of parts) requirePartNumber(u, n);
  const now = nowSeconds();
  const expires = now + targetTtlSeconds;
  const driver = u.mode === "presigned" ? await driverFor(env, await getStorage(db, u.storageId)) : null;
  await db
    .update(uploads)
    .set({ mtime: now, expiresAt: now + idleSeconds })
    .where(eq(uploads.uploadId, uploadId));
  return Promise.all(
    [...new Set(parts)].map(async (n) => ({
      part: n,
      method: "PUT" as const,
      size: expectedPartSize(u, n),
      expires,
      url: driver
        ? await driver.presignPart(u.objectKey, u.multipartId, n, targetTtlSeconds, expectedPartSize(u, n))
        : `${origin}/api/ul/${u.uploadId}/part/${n}?${await signUrl(env.JWT_SECRET, "part", `${u.uploadId}:${n}`, expires)}`,
    })),
  );
}

/** The client's word that a part reached the bucket (needed on the presigned path, harmless on the Worker path). */
export async function reportPart(db: Db, auth: AuthUser, uploadId: string, n: number, etag: string) {
  const u = await loadUpload(db, auth, uploadId);
  requireActive(u);
  requirePartNumber(u, n);
  if (u.mode === "worker") {
    const held = await db
      .select()
      .from(uploadParts)
      .where(and(eq(uploadParts.uploadId, uploadId), eq(uploadParts.partNumber, n)))
      .get();
    if (!held || held.etag.replace(/"/g, "") !== etag.replace(/"/g, ""))
      throw new ApiError("conflict", `Часть ${n} не получена сервером: отправьте её снова`);
    return { part: n, size: held.size, etag: held.etag };
  }
  const now = nowSeconds();
  const part = { uploadId, partNumber: n, size: expectedPartSize(u, n), etag, ctime: now };
  await db.batch([
    db
      .insert(uploadParts)
      .values(part)
      .onConflictDoUpdate({ target: [uploadParts.uploadId, uploadParts.partNumber], set: { etag, ctime: now } }),
    db
      .update(uploads)
      .set({ mtime: now, expiresAt: now + idleSeconds })
      .where(eq(uploads.uploadId, uploadId)),
  ]);
  return { part: n, size: part.size, etag };
}

/** The caller's unfinished uploads (to resume after a closed tab), optionally for one asset. */
export async function activeUploads(db: Db, auth: AuthUser, assetId?: string) {
  const rows = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.userId, auth.userId), eq(uploads.state, "active"), assetId ? eq(uploads.assetId, assetId) : undefined))
    .orderBy(uploads.ctime);
  const parts = rows.length
    ? await db
        .select()
        .from(uploadParts)
        .where(
          inArray(
            uploadParts.uploadId,
            rows.map((u) => u.uploadId),
          ),
        )
    : [];
  return rows.map((u) =>
    describe(
      u,
      parts.filter((p) => p.uploadId === u.uploadId),
    ),
  );
}
