import { and, desc, eq, inArray, like, or } from "drizzle-orm";
import { accessRules, assets, groupMembers, variants, versions } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, requireAccess } from "../lib/access";
import { assetFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { bareType } from "../../shared/lib/mime";
import { isRasterPreview, rasterPreviewTypes } from "../../shared/lib/served-bytes";
import { driverFor, getStorage } from "../lib/storage";
import { requireQuota } from "../lib/quota";
import { requireAssets } from "./guard";
import { loadAsset } from "./service";
import { variantById, variantOut } from "./versions";

export const maxPreviewBytes = 10 * 1024 * 1024;
/** Preview config: the size and quality the jobs render previews at. */
export const previewConfig = { width: 640, height: 360, quality: 80 };

/** Assets that carry access rules of their own, among those the caller may read. */
export async function aclAssets(db: Db, auth: AuthUser) {
  const ctx = await accessContext(db, auth);
  return db
    .selectDistinct({ asset_id: assets.assetId, name: assets.name, mimetype: assets.mimetype })
    .from(assets)
    .innerJoin(accessRules, and(eq(accessRules.objId, assets.assetId), eq(accessRules.objType, "asset")))
    .where(assetFilter(ctx, assets.assetId))
    .orderBy(assets.name)
    .limit(1000);
}

export const techFields = (props: Record<string, unknown>) => Object.entries(props).map(([name, value]) => ({ name, value }));

export async function patchTechProps(db: Db, auth: AuthUser, variantId: string, props: Record<string, unknown>) {
  const v = await variantById(db, auth, variantId, "update");
  const next = { ...v.techProps, ...props };
  await db.batch([
    db.update(variants).set({ techProps: next }).where(eq(variants.variantId, variantId)),
    eventInsert(db, {
      kind: "variant.tech-props",
      userId: auth.userId,
      entityType: "variant",
      entityId: variantId,
      data: { keys: Object.keys(props) },
    }),
  ]);
  return next;
}

/** The document proxy (a PDF rendition) of a version, for the document viewer. */
export async function proxyDoc(db: Db, auth: AuthUser, assetId: string, version: number) {
  await requireAssets(db, auth, "read", [assetId]);
  const row = await db
    .select()
    .from(variants)
    .where(
      and(
        eq(variants.assetId, assetId),
        eq(variants.version, version),
        or(like(variants.variantType, "proxy%"), eq(variants.mimeType, "application/pdf")),
      ),
    )
    .orderBy(desc(eq(variants.mimeType, "application/pdf")))
    .limit(1)
    .get();
  if (!row) throw new ApiError("not_found", "У версии нет документа для просмотра");
  return variantOut(row);
}

/** Stores a preview image for a variant (replacing the previous one). */
export async function uploadPreview(
  db: Db,
  env: Env,
  auth: AuthUser,
  variantId: string,
  mime: string,
  size: number,
  body: ReadableStream | null,
) {
  const v = await variantById(db, auth, variantId, "update");
  // Raster only: an SVG preview would be a document with script, shown wherever previews are.
  if (!isRasterPreview(mime))
    throw new ApiError("bad_request", `Превью должно быть растровым изображением (${rasterPreviewTypes.join(", ")})`, [
      { field: "Content-Type", message: `нужен один из типов: ${rasterPreviewTypes.join(", ")}` },
    ]);
  if (!Number.isFinite(size) || size <= 0 || !body)
    throw new ApiError("bad_request", "Нужно тело запроса с Content-Length", [{ field: "Content-Length", message: "обязательное поле" }]);
  if (size > maxPreviewBytes) throw new ApiError("payload_too_large", "Превью больше 10 МБ");
  const storage = await getStorage(db, v.storageId);
  const key = `previews/${variantId}`;
  await (await driverFor(env, storage)).put(key, body, size, bareType(mime));
  await db.batch([
    db.update(variants).set({ previewKey: key, previewStorageId: storage.storageId }).where(eq(variants.variantId, variantId)),
    eventInsert(db, { kind: "variant.preview", userId: auth.userId, entityType: "variant", entityId: variantId, data: { size } }),
  ]);
  return { variant_id: variantId, preview_storage_id: storage.storageId, size };
}

/** Copies asset `a` (its latest version's bytes) into group `b` as a new asset. */
export async function copyAsset(db: Db, env: Env, auth: AuthUser, assetId: string, groupId: string) {
  await requireAssets(db, auth, "download", [assetId]);
  await requireAccess(db, auth, "create", [groupId], { types: ["group"], notFound: "Группа не найдена" });
  const src = await loadAsset(db, assetId);
  const rows = await db.select().from(variants).where(eq(variants.assetId, assetId)).orderBy(desc(variants.version));
  const latest = rows.filter((r) => r.version === rows[0]?.version);
  // The copy's bytes are the copier's: they count against their quota as an upload would.
  await requireQuota(
    db,
    env,
    auth.userId,
    latest.reduce((n, v) => n + v.contentSize, 0),
  );
  const now = nowSeconds();
  const copyId = newId();
  const copies = [];
  for (const v of latest) {
    const driver = await driverFor(env, await getStorage(db, v.storageId));
    const obj = await driver.get(v.objectKey);
    if (!obj) throw new ApiError("not_found", "Содержимое файла не найдено в хранилище");
    const variantId = newId();
    const objectKey = `assets/${copyId}/${variantId}`;
    const put = await driver.put(objectKey, obj.body, v.contentSize, v.mimeType);
    copies.push({
      ...v,
      variantId,
      assetId: copyId,
      version: 1,
      objectKey,
      etag: put.etag || v.etag,
      previewKey: null,
      previewStorageId: null,
      userId: auth.userId,
      ctime: now,
    });
  }
  await db.batch([
    db.insert(assets).values({ ...src, assetId: copyId, owner: auth.userId, creator: auth.userId, ctime: now, mtime: now, atime: now }),
    db.insert(groupMembers).values({ groupId, elId: copyId, elType: "asset", ctime: now }),
    ...(copies.length
      ? [db.insert(versions).values({ assetId: copyId, version: 1, userId: auth.userId, ctime: now }), db.insert(variants).values(copies)]
      : []),
    eventInsert(db, {
      kind: "asset.copy",
      userId: auth.userId,
      entityType: "asset",
      entityId: copyId,
      data: { from: assetId, group: groupId },
    }),
  ]);
  return { asset_id: copyId, ctime: now };
}

export async function previewsOf(db: Db, auth: AuthUser, ids: string[], by: "asset" | "variant") {
  const rows = await db
    .select()
    .from(variants)
    .where(inArray(by === "asset" ? variants.assetId : variants.variantId, ids))
    .orderBy(desc(variants.version));
  await requireAssets(db, auth, "read", by === "asset" ? ids : [...new Set(rows.map((r) => r.assetId))]);
  return ids.map((id) => {
    const mine = rows.filter((r) => (by === "asset" ? r.assetId : r.variantId) === id);
    const withPreview = mine.find((r) => r.version === mine[0]?.version && r.previewKey);
    return {
      id,
      variant_id: withPreview?.variantId ?? null,
      preview: withPreview ? `/api/asset/content/preview/${withPreview.assetId}/${withPreview.version}/${withPreview.variantId}` : null,
    };
  });
}
