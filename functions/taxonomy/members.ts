import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { assets, groups, taxa, taxonMembers } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, requireAccess, VIRTUAL_ROOT_ID } from "../lib/access";
import { assetFilter, groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { inSubtree } from "../lib/sql";
import type { ListMembersQuery } from "../../shared/taxonomy/schemas";
import { loadTaxon } from "./service";

/**
 * Objects filed under taxa: filing one needs `update` on it (like tagging it); a list shows only what
 * the caller can read, filtered in SQL by the permission engine.
 */

const taxonObject = async (db: Db, auth: AuthUser, objectId: string, permission: "read" | "update") => {
  if (objectId === VIRTUAL_ROOT_ID)
    throw new ApiError("validation", "Неверные данные: «objectId»: виртуальный корень не входит в разделы", [
      { field: "objectId", message: "виртуальный корень не входит в разделы" },
    ]);
  const obj = (await requireAccess(db, auth, permission, [objectId], { types: ["asset", "group"] })).get(objectId)!;
  return obj.type as "asset" | "group";
};

const membership = (taxonId: string, objectId: string) => and(eq(taxonMembers.taxonId, taxonId), eq(taxonMembers.objectId, objectId));

/** Idempotent: an object already filed there changes nothing and writes no event. */
export async function addMember(db: Db, auth: AuthUser, taxonId: string, objectId: string) {
  await loadTaxon(db, taxonId);
  const type = await taxonObject(db, auth, objectId, "update");
  const there = await db.select({ t: taxonMembers.taxonId }).from(taxonMembers).where(membership(taxonId, objectId)).get();
  if (!there) {
    await db.batch([
      db.insert(taxonMembers).values({ taxonId, objectId, objectType: type, ctime: nowSeconds() }).onConflictDoNothing(),
      eventInsert(db, { kind: "taxon.member-add", userId: auth.userId, entityType: type, entityId: objectId, data: { taxon_id: taxonId } }),
    ]);
  }
  return { ok: true as const };
}

export async function deleteMember(db: Db, auth: AuthUser, taxonId: string, objectId: string) {
  await loadTaxon(db, taxonId);
  const type = await taxonObject(db, auth, objectId, "update");
  const there = await db.select({ t: taxonMembers.taxonId }).from(taxonMembers).where(membership(taxonId, objectId)).get();
  if (there) {
    await db.batch([
      db.delete(taxonMembers).where(membership(taxonId, objectId)),
      eventInsert(db, { kind: "taxon.member-del", userId: auth.userId, entityType: type, entityId: objectId, data: { taxon_id: taxonId } }),
    ]);
  }
  return { ok: true as const };
}

/**
 * A page of a taxon's members (with `descendants`, of its whole subtree, each object once), by name:
 * assets and live groups the caller can read, and nothing else — not even in `total`.
 */
export async function listMembers(db: Db, auth: AuthUser, taxonId: string, q: ListMembersQuery) {
  const taxon = await loadTaxon(db, taxonId);
  const ctx = await accessContext(db, auth);
  const scope = q.descendants
    ? inArray(taxonMembers.taxonId, db.select({ id: taxa.taxonId }).from(taxa).where(inSubtree(taxa.path, taxon.path)))
    : eq(taxonMembers.taxonId, taxonId);
  const readable = sql`((${taxonMembers.objectType} = 'asset' AND ${assets.assetId} IS NOT NULL AND ${assetFilter(ctx, taxonMembers.objectId)})
    OR (${taxonMembers.objectType} = 'group' AND ${groups.groupId} IS NOT NULL AND ${groupFilter(ctx, groups)}))`;
  const where = and(scope, readable);
  const name = sql<string>`coalesce(${assets.name}, ${groups.groupName})`;
  const onAsset = and(eq(taxonMembers.objectType, "asset"), eq(assets.assetId, taxonMembers.objectId));
  const onGroup = and(eq(taxonMembers.objectType, "group"), eq(groups.groupId, taxonMembers.objectId));
  const page = db
    .select({ entity_id: taxonMembers.objectId, entity_type: taxonMembers.objectType, name })
    .from(taxonMembers)
    .leftJoin(assets, onAsset)
    .leftJoin(groups, onGroup)
    .where(where)
    .groupBy(taxonMembers.objectId)
    .orderBy(asc(name), asc(taxonMembers.objectId))
    .limit(q.take)
    .offset(q.skip);
  const total = db
    .select({ n: sql<number>`count(DISTINCT ${taxonMembers.objectId})` })
    .from(taxonMembers)
    .leftJoin(assets, onAsset)
    .leftJoin(groups, onGroup)
    .where(where);
  const [items, [count]] = await db.batch([page, total]);
  return { total: count?.n ?? 0, items };
}

/** The taxa an object is filed under (needs read on it), by name. */
export async function taxaOf(db: Db, auth: AuthUser, objectId: string) {
  await taxonObject(db, auth, objectId, "read");
  const rows = await db
    .select({ taxon_id: taxa.taxonId, name: taxa.name, parent: taxa.parentId, depth: taxa.depth })
    .from(taxonMembers)
    .innerJoin(taxa, eq(taxa.taxonId, taxonMembers.taxonId))
    .where(eq(taxonMembers.objectId, objectId))
    .orderBy(asc(taxa.nameKey))
    .all();
  return rows;
}
