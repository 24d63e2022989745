import { and, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import { accessRules, groupMembers, groups } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, entityAccess, requireAccess, VIRTUAL_ROOT_ID, type ResolvedObject } from "../lib/access";
import { batchAll } from "../lib/batch";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { deleteAssets } from "../assets/service";
import { ApiError } from "../lib/errors";
import { unlinkEntities } from "../lib/entity-links";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { idList, inSubtree } from "../lib/sql";
import { assertStorageExists, nearestGroupStorage } from "../storage/resolve";
import { assertNameFree, groupColumns, mapUniqueViolation, nameKey, pathIds, present } from "./common";
import type { CreateGroupBody, UpdateGroupBody } from "../../shared/groups/schemas";
import { purgedAssets } from "./trash";

/** Group CRUD and the delete/restore/purge cycle (docs/decisions/004-group-delete-and-purge.md). */

const groupNotFound = "Группа не найдена";
const pathOf = (o: ResolvedObject | undefined) => (o?.type === "group" ? o.path : "/");

export async function getGroup(db: Db, auth: AuthUser, id: string) {
  if (id === VIRTUAL_ROOT_ID) throw new ApiError("bad_request", "Виртуальный корень — не группа: используйте acl-roots");
  const { obj, perms } = await entityAccess(db, auth, id);
  if (obj.type !== "group") throw new ApiError("not_found", groupNotFound);
  const row = await db.select(groupColumns).from(groups).where(eq(groups.groupId, id)).get();
  if (!row) throw new ApiError("not_found", groupNotFound);
  return { ...present(await accessContext(db, auth), row), acl: perms };
}

export async function createGroup(db: Db, auth: AuthUser, body: CreateGroupBody) {
  const objects = await requireAccess(db, auth, "create", [body.parent], {
    types: ["group"],
    notFound: "Родительская группа не найдена",
  });
  const parent = objects.get(body.parent)!;
  const parentId = body.parent === VIRTUAL_ROOT_ID ? null : body.parent;
  await assertNameFree(db, parentId, body.group_name);
  const groupId = newId();
  const path = `${pathOf(parent)}${groupId}/`;
  const now = nowSeconds();
  await mapUniqueViolation(body.group_name, () =>
    db.batch([
      db.insert(groups).values({
        groupId,
        groupName: body.group_name,
        nameKey: nameKey(body.group_name),
        parentId,
        path,
        depth: pathIds(path).length,
        owner: auth.userId,
        ctime: now,
        mtime: now,
      }),
      eventInsert(db, {
        kind: "group.created",
        userId: auth.userId,
        entityType: "group",
        entityId: groupId,
        data: { parent: parentId, name: body.group_name },
      }),
    ]),
  );
  return { group_id: groupId };
}

export async function updateGroup(db: Db, auth: AuthUser, id: string, body: UpdateGroupBody) {
  await requireAccess(db, auth, "update", [id], { types: ["group"], notFound: groupNotFound });
  if (id === VIRTUAL_ROOT_ID) throw new ApiError("bad_request", "Виртуальный корень нельзя изменить");
  const current = (await db.select({ parentId: groups.parentId }).from(groups).where(eq(groups.groupId, id)).get())!;
  if (body.group_name !== undefined) await assertNameFree(db, current.parentId, body.group_name, id);
  await assertStorageExists(db, body.group_default_storage, "group_default_storage");
  const set = {
    mtime: nowSeconds(),
    ...(body.group_name !== undefined ? { groupName: body.group_name, nameKey: nameKey(body.group_name) } : {}),
    ...(body.group_default_storage !== undefined ? { defaultStorage: body.group_default_storage } : {}),
    ...(body.group_default_class !== undefined ? { defaultClass: body.group_default_class } : {}),
  };
  await mapUniqueViolation(body.group_name ?? "", () =>
    db.batch([
      db.update(groups).set(set).where(eq(groups.groupId, id)),
      eventInsert(db, { kind: "group.updated", userId: auth.userId, entityType: "group", entityId: id, data: body }),
    ]),
  );
  return getGroup(db, auth, id);
}

const rejectVirtual = (ids: string[]) => {
  if (ids.includes(VIRTUAL_ROOT_ID)) throw new ApiError("bad_request", "Виртуальный корень нельзя удалить");
};

/** Soft delete: the groups and their subtrees disappear from every view until restore or purge. */
export async function deleteGroups(db: Db, auth: AuthUser, ids: string[]) {
  rejectVirtual(ids);
  const objects = await requireAccess(db, auth, "delete", ids, { types: ["group"], notFound: groupNotFound });
  const now = nowSeconds();
  await batchAll(db, [
    ...ids.map((id) =>
      db
        .update(groups)
        .set({ deletedAt: now, deletedRoot: id, deletedBy: auth.userId })
        .where(and(inSubtree(groups.path, pathOf(objects.get(id))), isNull(groups.deletedAt))),
    ),
    ...ids.map((id) => eventInsert(db, { kind: "group.deleted", userId: auth.userId, entityType: "group", entityId: id })),
  ]);
  return { ok: true as const, count: ids.length };
}

async function deletedRows(db: Db, ids: string[]) {
  return db
    .select({
      id: groups.groupId,
      name: groups.groupName,
      parentId: groups.parentId,
      deletedAt: groups.deletedAt,
      deletedRoot: groups.deletedRoot,
    })
    .from(groups)
    .where(inArray(groups.groupId, idList(ids)))
    .all();
}

/** The suffix a restored group takes when a live sibling has its name now (decision 056). */
export const RESTORED_SUFFIX = " (восстановлено)";

/** `name`, or the first of «name (восстановлено)», «name (восстановлено 2)», … that no live sibling holds. */
async function freeName(db: Db, parentId: string | null, name: string) {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : n === 2 ? `${name}${RESTORED_SUFFIX}` : `${name} (восстановлено ${n - 1})`;
    try {
      await assertNameFree(db, parentId, candidate);
      return candidate;
    } catch (err) {
      if (n > 100) throw err;
    }
  }
}

/**
 * Brings back exactly what one delete hid; refuses when the parent is gone. A live sibling that took
 * the name meanwhile keeps it: the restored group is renamed «… (восстановлено)» (decision 056).
 */
export async function restoreGroups(db: Db, auth: AuthUser, ids: string[]) {
  rejectVirtual(ids);
  await requireAccess(db, auth, "delete", ids, { deleted: true, types: ["group"], notFound: groupNotFound });
  const rows = await deletedRows(db, ids);
  const names = new Map<string, string>();
  for (const row of rows) {
    if (row.deletedAt === null) throw new ApiError("conflict", `Группа «${row.name}» не удалена`);
    if (row.deletedRoot !== row.id) throw new ApiError("conflict", `Группа «${row.name}» удалена вместе с родительской: восстановите её`);
    if (row.parentId) {
      const parent = await db.select({ deletedAt: groups.deletedAt }).from(groups).where(eq(groups.groupId, row.parentId)).get();
      if (!parent || parent.deletedAt !== null)
        throw new ApiError("conflict", `Группа «${row.name}»: сначала восстановите родительскую группу`);
    }
    const name = await freeName(db, row.parentId, row.name);
    if (name !== row.name) names.set(row.id, name);
  }
  await mapUniqueViolation(rows[0]?.name ?? "", () =>
    batchAll(db, [
      // Renamed while still deleted: the sibling-name index covers live rows only, and is checked per statement.
      ...[...names].map(([id, name]) =>
        db
          .update(groups)
          .set({ groupName: name, nameKey: nameKey(name), mtime: nowSeconds() })
          .where(eq(groups.groupId, id)),
      ),
      ...ids.map((id) => db.update(groups).set({ deletedAt: null, deletedRoot: null, deletedBy: null }).where(eq(groups.deletedRoot, id))),
      ...ids.map((id) =>
        eventInsert(db, {
          kind: "group.restored",
          userId: auth.userId,
          entityType: "group",
          entityId: id,
          ...(names.has(id) ? { data: { renamed_to: names.get(id) } } : {}),
        }),
      ),
    ]),
  );
  return { ok: true as const, count: ids.length };
}

/**
 * Permanent: the deleted groups, their subtrees, memberships and the rules on or of them; then the
 * assets that were placed only there, with their stored bytes (decision 056, which amends 004: the
 * «Удалить навсегда» confirmation counts exactly these). An asset also placed elsewhere stays there.
 */
export async function purgeGroups(db: Db, env: Env, auth: AuthUser, ids: string[]) {
  rejectVirtual(ids);
  const objects = await requireAccess(db, auth, "delete", ids, { deleted: true, types: ["group"], notFound: groupNotFound });
  for (const row of await deletedRows(db, ids)) {
    if (row.deletedAt === null) throw new ApiError("conflict", `Группа «${row.name}» не удалена: сначала удалите её, потом очищайте`);
  }
  const statements = ids.flatMap((id) => {
    const inTree = db
      .select({ id: groups.groupId })
      .from(groups)
      .where(inSubtree(groups.path, pathOf(objects.get(id))));
    return [
      db.delete(groupMembers).where(inArray(groupMembers.groupId, inTree)),
      ...unlinkEntities(db, inTree),
      db
        .delete(accessRules)
        .where(or(inArray(accessRules.objId, inTree), and(eq(accessRules.subjType, "group"), inArray(accessRules.subjId, inTree)))),
      db.delete(groups).where(and(inSubtree(groups.path, pathOf(objects.get(id))), isNotNull(groups.deletedAt))),
      eventInsert(db, { kind: "group.purged", userId: auth.userId, entityType: "group", entityId: id }),
    ];
  });
  // Computed before the batch: once the memberships are gone nothing says where these assets were.
  const doomed = [...new Set((await Promise.all(ids.map((id) => purgedAssets(db, pathOf(objects.get(id)))))).flat())];
  await batchAll(db, statements);
  // The asset rows and objects go after the groups: if this step fails the assets are orphans (their owner's), never dangling.
  for (let i = 0; i < doomed.length; i += 50) await deleteAssets(db, env, auth, doomed.slice(i, i + 50), { skipCheck: true });
  return { ok: true as const, count: ids.length };
}

/** The caller's default storage for new assets in a group: its own, or the nearest ancestor's (functions/storage/resolve.ts). */
export async function groupStorage(db: Db, auth: AuthUser, id: string) {
  const objects = await requireAccess(db, auth, "read", [id], { types: ["group"], notFound: groupNotFound });
  const hit = await nearestGroupStorage(db, [pathOf(objects.get(id))]);
  return { group_id: id, storage_id: hit?.storageId ?? null, inherited_from: hit && hit.groupId !== id ? hit.groupId : null };
}
