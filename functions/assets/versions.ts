import { and, asc, desc, eq, inArray, notExists, sql } from "drizzle-orm";
import { uploads, variants, versions, type Variant } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { idList } from "../lib/sql";
import { readablePlacements, requireAssets } from "./guard";
import { showOrder, viewableVariantTypes } from "../../shared/assets/variant-rights";

export const variantOut = (v: Variant) => ({
  variant_id: v.variantId,
  asset_id: v.assetId,
  version: v.version,
  storage: v.storageId,
  name: v.name,
  mime_type: v.mimeType,
  format: v.format,
  variant_type: v.variantType,
  content_size: v.contentSize,
  file_name: v.fileName,
  sha256: v.sha256,
  preview_storage_id: v.previewStorageId,
  metadata_storage_id: v.metadataStorageId,
  user_id: v.userId,
  ctime: v.ctime,
});

/** Versions of an asset, newest first, one row per variant (an empty version has null variant fields). */
export async function listVersions(db: Db, auth: AuthUser, assetId: string) {
  await requireAssets(db, auth, "read", [assetId]);
  const rows = await db
    .select({
      version: versions.version,
      desc: versions.desc,
      ctime: versions.ctime,
      user_id: versions.userId,
      variant_id: variants.variantId,
      variant_name: variants.name,
      variant_type: variants.variantType,
    })
    .from(versions)
    .leftJoin(variants, and(eq(variants.assetId, versions.assetId), eq(variants.version, versions.version)))
    .where(eq(versions.assetId, assetId))
    .orderBy(desc(versions.version), asc(variants.ctime));
  return rows;
}

export async function listVariants(db: Db, auth: AuthUser, assetId: string, version: number) {
  await requireAssets(db, auth, "read", [assetId]);
  const rows = await db
    .select()
    .from(variants)
    .where(and(eq(variants.assetId, assetId), eq(variants.version, version)))
    .orderBy(asc(variants.ctime));
  return rows.map(variantOut);
}

/** The right a variant's bytes need: `read` for proxies and watermarked copies, `download` for the rest. */
export const rightFor = (v: Pick<Variant, "variantType">): "read" | "download" =>
  viewableVariantTypes.includes(v.variantType) ? "read" : "download";

/** A variant by id after a check of `permission` on its asset; not_found either way. */
export async function variantById(db: Db, auth: AuthUser, variantId: string, permission: "read" | "download" | "update" = "read") {
  const v = await db.select().from(variants).where(eq(variants.variantId, variantId)).get();
  if (!v) throw new ApiError("not_found", "Вариант не найден");
  await requireAssets(db, auth, permission, [v.assetId]);
  return v;
}

/** A variant by id whose bytes the caller may get: 404 when it may not read the asset, 403 without the right the type needs. */
export async function variantBytesById(db: Db, auth: AuthUser, variantId: string) {
  const v = await db.select().from(variants).where(eq(variants.variantId, variantId)).get();
  if (!v) throw new ApiError("not_found", "Вариант не найден");
  await requireAssets(db, auth, rightFor(v), [v.assetId]);
  return v;
}

/** A variant of a version by its id or its type name (download/{id}/{version}/{variant}). */
export async function findVariant(db: Db, assetId: string, version: number | "latest", variant: string) {
  const byType = /^[a-z_]+$/.test(variant);
  const rows = await db
    .select()
    .from(variants)
    .where(
      and(
        eq(variants.assetId, assetId),
        version === "latest" ? undefined : eq(variants.version, version),
        byType ? eq(variants.variantType, variant as Variant["variantType"]) : eq(variants.variantId, variant),
      ),
    )
    .orderBy(desc(variants.version), desc(variants.ctime))
    .limit(1);
  if (!rows[0]) throw new ApiError("not_found", "Вариант не найден");
  return rows[0];
}

/**
 * The variant to play: the best proxy of the latest version, else its master or initial — those only
 * for a caller who may download; without it the best viewable copy, else the 403 naming the right.
 */
export async function playableVariant(db: Db, auth: AuthUser, assetId: string) {
  await requireAssets(db, auth, "read", [assetId]);
  const rows = await db.select().from(variants).where(eq(variants.assetId, assetId)).orderBy(desc(variants.version));
  const latest = rows[0]?.version;
  const shown = rows.filter((r) => r.version === latest);
  const order = showOrder(shown.map((r) => ({ type: r.variantType, mime: r.mimeType })));
  const [best, ...rest] = shown.sort((a, b) => order.indexOf(a.variantType) - order.indexOf(b.variantType));
  if (!best) throw new ApiError("not_found", "У файла нет содержимого для воспроизведения");
  if (rightFor(best) === "read") return best;
  const viewable = rest.find((r) => rightFor(r) === "read");
  try {
    await requireAssets(db, auth, "download", [assetId]);
    return best;
  } catch (err) {
    if (viewable && err instanceof ApiError && err.code === "forbidden") return viewable;
    throw err;
  }
}

export async function createVersion(db: Db, auth: AuthUser, assetId: string, description: string) {
  await requireAssets(db, auth, "update", [assetId]);
  const [[top], [pending]] = await db.batch([
    db
      .select({ v: sql<number>`max(${versions.version})` })
      .from(versions)
      .where(eq(versions.assetId, assetId)),
    db
      .select({ v: sql<number>`max(${uploads.version})` })
      .from(uploads)
      .where(and(eq(uploads.assetId, assetId), inArray(uploads.state, ["active", "completing"]))),
  ]);
  const version = Math.max(top?.v ?? 0, pending?.v ?? 0) + 1;
  const now = nowSeconds();
  await db.batch([
    db.insert(versions).values({ assetId, version, desc: description, userId: auth.userId, ctime: now }),
    eventInsert(db, { kind: "version.create", userId: auth.userId, entityType: "asset", entityId: assetId, data: { version } }),
  ]);
  return { asset_id: assetId, version, desc: description, ctime: now };
}

/** Removes versions that hold no variant and no upload in progress. */
export async function dropEmptyVersions(db: Db, auth: AuthUser, assetId: string) {
  await requireAssets(db, auth, "update", [assetId]);
  const emptyWhere = and(
    eq(versions.assetId, assetId),
    notExists(
      db
        .select({ x: sql`1` })
        .from(variants)
        .where(and(eq(variants.assetId, versions.assetId), eq(variants.version, versions.version))),
    ),
    notExists(
      db
        .select({ x: sql`1` })
        .from(uploads)
        .where(
          and(
            eq(uploads.assetId, versions.assetId),
            eq(uploads.version, versions.version),
            inArray(uploads.state, ["active", "completing"]),
          ),
        ),
    ),
  );
  const empty = await db.select({ v: versions.version }).from(versions).where(emptyWhere);
  if (empty.length) {
    await db.batch([
      db.delete(versions).where(
        and(
          eq(versions.assetId, assetId),
          inArray(
            versions.version,
            empty.map((e) => e.v),
          ),
        ),
      ),
      eventInsert(db, {
        kind: "version.drop-empty",
        userId: auth.userId,
        entityType: "asset",
        entityId: assetId,
        data: { versions: empty.map((e) => e.v) },
      }),
    ]);
  }
  return { asset_id: assetId, dropped: empty.map((e) => e.v) };
}

/** Latest version and its variants for each asset the caller may read. */
export async function versionsByIds(db: Db, auth: AuthUser, ids: string[]) {
  await requireAssets(db, auth, "read", ids);
  const rows = await db
    .select()
    .from(variants)
    .where(inArray(variants.assetId, idList(ids)))
    .orderBy(desc(variants.version));
  return ids.map((id) => {
    const mine = rows.filter((r) => r.assetId === id);
    const latest = mine[0]?.version ?? null;
    return { asset_id: id, version: latest, variants: mine.filter((r) => r.version === latest).map(variantOut) };
  });
}

/** The groups the asset is in, among those the caller can read. */
export async function memberOf(db: Db, auth: AuthUser, assetId: string) {
  await requireAssets(db, auth, "read", [assetId]);
  return (await readablePlacements(db, auth, assetId)).map(({ group_id, group_name }) => ({ group_id, group_name }));
}

/** Bytes of the latest version (the sum of its variants) and of every version. */
export async function contentSize(db: Db, auth: AuthUser, assetId: string) {
  await requireAssets(db, auth, "read", [assetId]);
  const rows = await db
    .select({ version: variants.version, size: variants.contentSize, type: variants.variantType })
    .from(variants)
    .where(eq(variants.assetId, assetId))
    .orderBy(desc(variants.version));
  const latest = rows[0]?.version ?? null;
  const initial =
    rows.find((r) => r.version === latest && (r.type === "initial" || r.type === "master")) ?? rows.find((r) => r.version === latest);
  return {
    asset_id: assetId,
    version: latest,
    content_size: initial?.size ?? 0,
    version_size: rows.filter((r) => r.version === latest).reduce((n, r) => n + r.size, 0),
    total_size: rows.reduce((n, r) => n + r.size, 0),
  };
}
