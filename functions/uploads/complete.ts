import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import { assets, uploadParts, uploads, variants, versions, type Upload } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { deleteAssets } from "../assets/service";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { driverFor, getStorage } from "../lib/storage";
import { maxPartSize } from "../../shared/uploads/schemas";
import { describe, expectedPartSize, idleSeconds, loadUpload, partsOf, requireActive, requirePartNumber } from "./service";
import { storageFailure } from "../lib/storage/failure";

/**
 * Worker path: one part streamed into the storage's multipart upload (known length, never buffered).
 * `throughWorker` is for callers whose bytes already reach the Worker (WebDAV PUT): they stream parts of a
 * presigned-mode upload here too, since their client cannot be sent to the bucket.
 */
export async function putPart(
  db: Db,
  env: Env,
  uploadId: string,
  n: number,
  contentLength: number,
  body: ReadableStream | null,
  opts: { throughWorker?: boolean } = {},
) {
  const u = await db.select().from(uploads).where(eq(uploads.uploadId, uploadId)).get();
  if (!u) throw new ApiError("not_found", "Загрузка не найдена");
  requireActive(u);
  requirePartNumber(u, n);
  if (u.mode !== "worker" && !opts.throughWorker) throw new ApiError("bad_request", "Части этой загрузки отправляются прямо в хранилище");
  const expected = expectedPartSize(u, n);
  if (contentLength > maxPartSize) throw new ApiError("payload_too_large", `Часть больше ${maxPartSize} байт`);
  if (!Number.isFinite(contentLength) || contentLength !== expected || (!body && expected > 0)) {
    throw new ApiError(
      "bad_request",
      `Часть ${n} должна быть ровно ${expected} байт (Content-Length: ${Number.isFinite(contentLength) ? contentLength : "нет"})`,
    );
  }
  const driver = await driverFor(env, await getStorage(db, u.storageId));
  let etag: string;
  try {
    etag = await driver.uploadPart(u.objectKey, u.multipartId, n, body ?? new Blob([]).stream(), expected);
  } catch (err) {
    throw storageFailure(err, "bad_request", `Часть ${n} не принята хранилищем: отправьте её ещё раз`);
  }
  const now = nowSeconds();
  await db.batch([
    db
      .insert(uploadParts)
      .values({ uploadId, partNumber: n, size: expected, etag, ctime: now })
      .onConflictDoUpdate({ target: [uploadParts.uploadId, uploadParts.partNumber], set: { etag, size: expected, ctime: now } }),
    db
      .update(uploads)
      .set({ workerBytes: sql`${uploads.workerBytes} + ${expected}`, mtime: now, expiresAt: now + idleSeconds })
      .where(eq(uploads.uploadId, uploadId)),
  ]);
  return { part: n, size: expected, etag };
}

/**
 * Finishes an upload: every part present with the right sizes, then the storage assembles the
 * object, then one batch makes the variant (and the version) visible. The active→completing flip
 * is a conditional UPDATE, so a second complete racing the first gets 409.
 */
export async function completeUpload(db: Db, env: Env, auth: AuthUser, uploadId: string) {
  const u = await loadUpload(db, auth, uploadId);
  requireActive(u);
  const parts = await partsOf(db, uploadId);
  const missing = describe(u, parts).missing;
  if (missing.length)
    throw new ApiError("bad_request", `Не хватает частей: ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? "…" : ""}`, [
      { field: "parts", message: `нет частей ${missing.slice(0, 20).join(", ")}` },
    ]);
  const wrong = parts.find((p) => p.size !== expectedPartSize(u, p.partNumber));
  if (wrong)
    throw new ApiError("bad_request", `Часть ${wrong.partNumber}: ${wrong.size} байт вместо ${expectedPartSize(u, wrong.partNumber)}`);
  const flipped = await db
    .update(uploads)
    .set({ state: "completing", mtime: nowSeconds() })
    .where(and(eq(uploads.uploadId, uploadId), eq(uploads.state, "active")))
    .returning({ id: uploads.uploadId });
  if (flipped.length === 0) throw new ApiError("conflict", "Загрузка уже завершается или завершена");
  const driver = await driverFor(env, await getStorage(db, u.storageId));
  try {
    await driver.completeMultipart(
      u.objectKey,
      u.multipartId,
      parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })),
    );
    const head = await driver.head(u.objectKey);
    if (!head || head.size !== u.size) {
      await driver.delete([u.objectKey]);
      throw new ApiError("bad_request", `Размер собранного файла ${head?.size ?? 0} байт вместо ${u.size}: загрузите файл заново`);
    }
    return await publish(db, env, auth, u, head.etag);
  } catch (err) {
    const state = err instanceof ApiError ? "aborted" : "active";
    await db.update(uploads).set({ state, mtime: nowSeconds() }).where(eq(uploads.uploadId, uploadId));
    if (err instanceof ApiError) throw err;
    throw storageFailure(err, "bad_request", "Хранилище не собрало файл: попробуйте завершить загрузку ещё раз");
  }
}

async function publish(db: Db, env: Env, auth: AuthUser, u: Upload, etag: string) {
  const now = nowSeconds();
  // A typed variant replaces the same type in that version; its old object is removed afterwards.
  const replaced =
    u.variantType === "untyped"
      ? []
      : await db
          .select()
          .from(variants)
          .where(and(eq(variants.assetId, u.assetId), eq(variants.version, u.version), eq(variants.variantType, u.variantType)));
  await db.batch([
    db.delete(variants).where(inArray(variants.variantId, replaced.length ? replaced.map((r) => r.variantId) : [""])),
    ...(u.newVersion
      ? [db.insert(versions).values({ assetId: u.assetId, version: u.version, userId: u.userId, ctime: now }).onConflictDoNothing()]
      : []),
    db.insert(variants).values({
      variantId: u.variantId,
      assetId: u.assetId,
      version: u.version,
      storageId: u.storageId,
      objectKey: u.objectKey,
      name: u.variantName ?? u.variantType,
      mimeType: u.mime,
      format: u.fileName.includes(".") ? u.fileName.split(".").pop()!.toLowerCase() : "",
      variantType: u.variantType,
      contentSize: u.size,
      fileName: u.fileName,
      etag,
      sha256: u.sha256,
      userId: u.userId,
      ctime: now,
    }),
    db.update(uploads).set({ state: "completed", mtime: now }).where(eq(uploads.uploadId, u.uploadId)),
    db.delete(uploadParts).where(eq(uploadParts.uploadId, u.uploadId)),
    // A new version's original gives the asset its type: an empty asset's first file, a PNG replaced by a PDF.
    db
      .update(assets)
      .set(u.newVersion && u.variantType === "initial" ? { mtime: now, mimetype: u.mime } : { mtime: now })
      .where(eq(assets.assetId, u.assetId)),
    eventInsert(db, {
      kind: "upload.complete",
      userId: auth.userId,
      entityType: "asset",
      entityId: u.assetId,
      data: { upload_id: u.uploadId, version: u.version, variant_id: u.variantId, size: u.size },
    }),
  ]);
  for (const r of replaced) {
    const d = await driverFor(env, await getStorage(db, r.storageId)).catch(() => null);
    await d?.delete([r.objectKey]).catch(() => {});
  }
  await env.JOBS.send({
    type: "upload-finished",
    assetId: u.assetId,
    version: u.version,
    variantId: u.variantId,
    variantType: u.variantType,
    size: u.size,
    mime: u.mime,
    sha256: u.sha256,
    userId: u.userId,
  });
  return { asset_id: u.assetId, version: u.version, variant_id: u.variantId, variant_type: u.variantType, content_size: u.size, etag };
}

/** Cancels an upload; cancelling a new asset's only upload deletes the asset (docs/decisions/007-uploads.md). */
export async function abortUpload(db: Db, env: Env, auth: AuthUser | null, u: Upload) {
  const flipped = await db
    .update(uploads)
    .set({ state: "aborted", mtime: nowSeconds() })
    .where(and(eq(uploads.uploadId, u.uploadId), inArray(uploads.state, auth ? ["active"] : ["active", "completing"])))
    .returning({ id: uploads.uploadId });
  if (flipped.length === 0) requireActive({ ...u, state: u.state === "active" ? "completing" : u.state });
  const driver = await driverFor(env, await getStorage(db, u.storageId)).catch(() => null);
  await driver?.abortMultipart(u.objectKey, u.multipartId);
  await db.batch([
    db.delete(uploadParts).where(eq(uploadParts.uploadId, u.uploadId)),
    eventInsert(db, {
      kind: "upload.abort",
      userId: auth?.userId ?? null,
      entityType: "asset",
      entityId: u.assetId,
      data: { upload_id: u.uploadId },
    }),
  ]);
  let assetDeleted = false;
  if (u.newAsset) {
    const [vers, others] = await db.batch([
      db.select({ v: versions.version }).from(versions).where(eq(versions.assetId, u.assetId)).limit(1),
      db
        .select({ id: uploads.uploadId })
        .from(uploads)
        .where(and(eq(uploads.assetId, u.assetId), ne(uploads.uploadId, u.uploadId), inArray(uploads.state, ["active", "completing"])))
        .limit(1),
    ]);
    if (vers.length === 0 && others.length === 0) {
      await deleteAssets(db, env, auth, [u.assetId], { skipCheck: true });
      assetDeleted = true;
    }
  }
  return { upload_id: u.uploadId, state: "aborted" as const, asset_deleted: assetDeleted };
}

/** Cron: aborts uploads idle past their expiry and forgets finished ones after a week. */
export async function cleanupUploads(env: Env, db: Db) {
  const now = nowSeconds();
  const stale = await db
    .select()
    .from(uploads)
    .where(and(inArray(uploads.state, ["active", "completing"]), lt(uploads.expiresAt, now)))
    .limit(50);
  for (const u of stale)
    await abortUpload(db, env, null, { ...u, state: "active" }).catch((err) => console.error("upload cleanup", u.uploadId, err));
  await db.delete(uploads).where(and(inArray(uploads.state, ["completed", "aborted"]), lt(uploads.mtime, now - 7 * 24 * 3600)));
  return stale.length;
}
