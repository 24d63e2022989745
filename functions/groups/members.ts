import { and, eq, inArray, sql } from "drizzle-orm";
import { groupMembers, groups, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAccess, requirePlacement, requireTeamChange, VIRTUAL_ROOT_ID, type ResolvedObject } from "../lib/access";
import { batchAll } from "../lib/batch";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { idList, inSubtree, literal } from "../lib/sql";
import { assertNameFree, duplicateName, mapUniqueViolation, nameKey, pathIds } from "./common";
import type { MemberType } from "../../db/schema/group-members";

/**
 * Putting assets and users into groups, taking them out, and moving assets and groups between groups.
 * Users (team membership) are admins' to change, since membership hands out the team's rules; assets
 * need `group` on the group, `read` on the asset, and a new place that gives the caller no right on it
 * that it lacks (requirePlacement). Taking out needs no more than `group`: it only narrows.
 */

type Ref = { el_id: string; el_type: MemberType };

async function checkMembers(db: Db, auth: AuthUser, groupId: string, members: Ref[], placing: boolean) {
  if (groupId === VIRTUAL_ROOT_ID) throw new ApiError("bad_request", "В виртуальный корень нельзя добавлять элементы");
  const userIds = members.filter((m) => m.el_type === "user").map((m) => m.el_id);
  const assetIds = members.filter((m) => m.el_type === "asset").map((m) => m.el_id);
  await requireAccess(db, auth, "read", [groupId], { types: ["group"], notFound: "Группа не найдена" });
  if (assetIds.length) await requireAccess(db, auth, "group", [groupId], { types: ["group"] });
  if (userIds.length) requireTeamChange(auth);
  if (assetIds.length) await requireAccess(db, auth, "read", assetIds, { types: ["asset"], notFound: "Файл не найден" });
  if (placing)
    await requirePlacement(
      db,
      auth,
      assetIds.map((id) => ({ id, type: "asset" as const })),
      groupId,
    );
  if (userIds.length) {
    const found = await db
      .select({ id: users.userId })
      .from(users)
      .where(inArray(users.userId, idList(userIds)))
      .all();
    if (found.length !== new Set(userIds).size) throw new ApiError("not_found", "Пользователь не найден");
  }
}

export async function insertMembers(db: Db, auth: AuthUser, groupId: string, members: Ref[]) {
  await checkMembers(db, auth, groupId, members, true);
  const now = nowSeconds();
  await db.batch([
    db
      .insert(groupMembers)
      .values(members.map((m) => ({ groupId, elId: m.el_id, elType: m.el_type, ctime: now })))
      .onConflictDoNothing(),
    eventInsert(db, { kind: "group.members_added", userId: auth.userId, entityType: "group", entityId: groupId, data: { members } }),
  ]);
  return { ok: true as const, count: members.length };
}

export async function deleteMembers(db: Db, auth: AuthUser, groupId: string, members: Ref[]) {
  await checkMembers(db, auth, groupId, members, false);
  await batchAll(db, [
    ...(["asset", "user"] as const).map((type) =>
      db
        .delete(groupMembers)
        .where(
          and(
            eq(groupMembers.groupId, groupId),
            eq(groupMembers.elType, type),
            inArray(groupMembers.elId, idList(members.filter((m) => m.el_type === type).map((m) => m.el_id))),
          ),
        ),
    ),
    eventInsert(db, { kind: "group.members_removed", userId: auth.userId, entityType: "group", entityId: groupId, data: { members } }),
  ]);
  return { ok: true as const, count: members.length };
}

type Movable = { el_id: string; el_type: "asset" | "group" };
const notInSource = () => new ApiError("conflict", "Элемент не находится в исходной группе");

/**
 * Moves groups (re-parenting: the subtree's paths are rewritten, so rights follow the new place)
 * and assets (the membership in `from` becomes one in `to`). All or nothing, in one batch.
 */
export async function moveMembers(db: Db, auth: AuthUser, from: string, to: string, members: Movable[]) {
  if (from === to) throw new ApiError("bad_request", "Исходная и целевая группы совпадают");
  if (to === VIRTUAL_ROOT_ID && members.some((m) => m.el_type === "asset")) {
    throw new ApiError("bad_request", "Файл нельзя положить в виртуальный корень: выберите группу");
  }
  const ends = await requireAccess(db, auth, "read", [from, to], { types: ["group"], notFound: "Группа не найдена" });
  const groupIds = members.filter((m) => m.el_type === "group").map((m) => m.el_id);
  const assetIds = members.filter((m) => m.el_type === "asset").map((m) => m.el_id);
  const els = new Map<string, ResolvedObject>();
  if (groupIds.length) {
    for (const [k, v] of await requireAccess(db, auth, "read", groupIds, { types: ["group"], notFound: "Группа не найдена" }))
      els.set(k, v);
  }
  if (assetIds.length) await requireAccess(db, auth, "read", assetIds, { types: ["asset"], notFound: "Файл не найден" });
  await requireAccess(db, auth, "group", [from, to], { types: ["group"] });
  await requirePlacement(
    db,
    auth,
    members.map((m) => ({ id: m.el_id, type: m.el_type })),
    to,
    from,
  );

  const toObj = ends.get(to)!;
  const toPath = toObj.type === "group" ? toObj.path : "/";
  const toParent = to === VIRTUAL_ROOT_ID ? null : to;
  const fromParent = from === VIRTUAL_ROOT_ID ? null : from;
  const rows = groupIds.length
    ? await db
        .select({ id: groups.groupId, name: groups.groupName, parentId: groups.parentId, path: groups.path })
        .from(groups)
        .where(inArray(groups.groupId, idList(groupIds)))
        .all()
    : [];
  const names = new Set<string>();
  for (const row of rows) {
    if (row.parentId !== fromParent) throw notInSource();
    if (toPath.startsWith(row.path)) throw new ApiError("bad_request", `Нельзя переместить группу «${row.name}» внутрь неё самой`);
    if (names.has(nameKey(row.name))) throw duplicateName(row.name);
    names.add(nameKey(row.name));
    await assertNameFree(db, toParent, row.name);
  }
  if (assetIds.length) {
    const present = await db
      .select({ id: groupMembers.elId })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, from), eq(groupMembers.elType, "asset"), inArray(groupMembers.elId, idList(assetIds))))
      .all();
    if (present.length !== new Set(assetIds).size) throw notInSource();
  }

  const now = nowSeconds();
  const statements = [
    ...rows.flatMap((row) => {
      const newPath = `${toPath}${row.id}/`;
      const delta = pathIds(newPath).length - pathIds(row.path).length;
      return [
        db.update(groups).set({ parentId: toParent, mtime: now }).where(eq(groups.groupId, row.id)),
        db
          .update(groups)
          .set({ path: sql`${literal(newPath)} || substr(${groups.path}, ${row.path.length + 1})`, depth: sql`${groups.depth} + ${delta}` })
          .where(inSubtree(groups.path, row.path)),
      ];
    }),
    ...(assetIds.length
      ? [
          db
            .delete(groupMembers)
            .where(and(eq(groupMembers.groupId, from), eq(groupMembers.elType, "asset"), inArray(groupMembers.elId, idList(assetIds)))),
          db
            .insert(groupMembers)
            .values(assetIds.map((elId) => ({ groupId: to, elId, elType: "asset" as const, ctime: now })))
            .onConflictDoNothing(),
        ]
      : []),
    eventInsert(db, { kind: "group.members_moved", userId: auth.userId, entityType: "group", entityId: to, data: { from, to, members } }),
  ];
  await mapUniqueViolation(rows[0]?.name ?? "", () => batchAll(db, statements));
  return { ok: true as const, count: members.length };
}
