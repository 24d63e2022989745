import { and, eq, inArray, ne } from "drizzle-orm";
import { assets, contentHashes, fieldValues, groupMembers, perceptualHashes, uploads, variants, versions } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { deleteStoredObjects, latestVersion, storedColumns } from "../assets/service";
import { requireAssets } from "../assets/guard";
import type { Db } from "../lib/db";
import { unlinkEntities } from "../lib/entity-links";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { idList } from "../lib/sql";

/**
 * «Сделать новой версией …» after an upload turned out to be a copy (docs/decisions/058-duplicates-and-look-alikes.md):
 * the uploaded asset's latest version, its stored objects and fingerprints included, becomes the next version of
 * `target`, and the uploaded asset is gone — no byte is sent again. It needs `update` on the target and `delete` on
 * the uploaded asset (the same rights as uploading a version there and deleting the copy). One batch: either the
 * version moved and the copy is gone, or nothing changed. The copy's other versions' objects are deleted after it.
 */
export async function mergeAsVersion(db: Db, env: Env, auth: AuthUser, sourceId: string, targetId: string) {
  if (sourceId === targetId)
    throw new ApiError("bad_request", "Файл нельзя сделать версией самого себя", [{ field: "target_id", message: "совпадает с asset_id" }]);
  await requireAssets(db, auth, "read", [sourceId, targetId]);
  await requireAssets(db, auth, "update", [targetId]);
  await requireAssets(db, auth, "delete", [sourceId]);
  const [from, last] = await Promise.all([latestVersion(db, sourceId), latestVersion(db, targetId)]);
  if (from === null) throw new ApiError("conflict", "У загруженного файла нет версии с содержимым");
  const active = await db
    .select({ id: uploads.uploadId })
    .from(uploads)
    .where(and(eq(uploads.assetId, sourceId), inArray(uploads.state, ["active", "completing"])))
    .get();
  if (active) throw new ApiError("conflict", "Загрузка в этот файл ещё идёт");
  const left = await db
    .select(storedColumns)
    .from(variants)
    .where(and(eq(variants.assetId, sourceId), ne(variants.version, from)));
  const version = (last ?? 0) + 1;
  const now = nowSeconds();
  const moved = { assetId: targetId, version };
  const ids = idList([sourceId]);
  await db.batch([
    db.insert(versions).values({ assetId: targetId, version, desc: "", userId: auth.userId, ctime: now }),
    db
      .update(variants)
      .set(moved)
      .where(and(eq(variants.assetId, sourceId), eq(variants.version, from))),
    db
      .update(contentHashes)
      .set(moved)
      .where(and(eq(contentHashes.assetId, sourceId), eq(contentHashes.version, from))),
    db
      .update(perceptualHashes)
      .set(moved)
      .where(and(eq(perceptualHashes.assetId, sourceId), eq(perceptualHashes.version, from))),
    db.update(assets).set({ mtime: now }).where(eq(assets.assetId, targetId)),
    // The copy itself: the rows deleteAssets removes; its other versions' objects go once these rows are gone.
    db.delete(variants).where(eq(variants.assetId, sourceId)),
    db.delete(versions).where(eq(versions.assetId, sourceId)),
    db.delete(fieldValues).where(and(inArray(fieldValues.entityId, ids), eq(fieldValues.entityType, "asset"))),
    db.delete(groupMembers).where(and(eq(groupMembers.elId, sourceId), eq(groupMembers.elType, "asset"))),
    ...unlinkEntities(db, ids),
    db.delete(assets).where(eq(assets.assetId, sourceId)),
    eventInsert(db, {
      kind: "asset.version-merged",
      userId: auth.userId,
      entityType: "asset",
      entityId: targetId,
      data: { from_asset: sourceId, version },
    }),
    eventInsert(db, { kind: "asset.delete", userId: auth.userId, entityType: "asset", entityId: sourceId }),
  ]);
  await deleteStoredObjects(db, env, left);
  return { asset_id: targetId, version };
}
