import { alias } from "drizzle-orm/sqlite-core";
import { and, asc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { accessRules, assets, groups, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, groupPermissions, requireAccess, resolveObjects, VIRTUAL_ROOT_ID } from "../lib/access";
import { requireAdmin } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import type { Permission } from "../../shared/lib/permissions";
import { idList, isUniqueViolation } from "../lib/sql";
import { pathIds } from "../lib/paths";

/** Access rules: admin CRUD, and "who has what on this object" for holders of `acl`. */

const su = alias(users, "su");
const sg = alias(groups, "sg");
const og = alias(groups, "og");
const oa = alias(assets, "oa");

const ruleColumns = {
  rule_id: accessRules.ruleId,
  subj_id: accessRules.subjId,
  subj_type: accessRules.subjType,
  obj_id: accessRules.objId,
  obj_type: accessRules.objType,
  acl: accessRules.acl,
  subj_name: sql<string | null>`coalesce(${su.userName}, ${sg.groupName})`,
  obj_name: sql<string | null>`coalesce(${og.groupName}, ${oa.name})`,
};

function selectRules(db: Db, where: SQL | undefined) {
  return db
    .select(ruleColumns)
    .from(accessRules)
    .leftJoin(su, and(eq(accessRules.subjType, "user"), eq(su.userId, accessRules.subjId)))
    .leftJoin(sg, and(eq(accessRules.subjType, "group"), eq(sg.groupId, accessRules.subjId)))
    .leftJoin(og, and(eq(accessRules.objType, "group"), eq(og.groupId, accessRules.objId)))
    .leftJoin(oa, and(eq(accessRules.objType, "asset"), eq(oa.assetId, accessRules.objId)))
    .where(where)
    .orderBy(asc(accessRules.ctime), asc(accessRules.ruleId));
}

export async function listRules(db: Db, auth: AuthUser, q: { subj?: string; obj?: string; skip: number; take: number }) {
  requireAdmin(auth);
  const where = and(q.subj ? eq(accessRules.subjId, q.subj) : undefined, q.obj ? eq(accessRules.objId, q.obj) : undefined);
  return selectRules(db, where).limit(q.take).offset(q.skip).all();
}

export async function getRule(db: Db, auth: AuthUser, id: string) {
  requireAdmin(auth);
  const row = await selectRules(db, eq(accessRules.ruleId, id)).get();
  if (!row) throw new ApiError("not_found", "Правило не найдено");
  return row;
}

/** Rules naming the user directly. */
export function userRules(db: Db, auth: AuthUser, id: string) {
  requireAdmin(auth);
  return selectRules(db, and(eq(accessRules.subjType, "user"), eq(accessRules.subjId, id))).all();
}

/** Rules on the group (as object) and of it (as a team subject). */
export function groupRules(db: Db, auth: AuthUser, id: string) {
  requireAdmin(auth);
  return selectRules(
    db,
    sql`(${accessRules.objId} = ${id} OR (${accessRules.subjType} = 'group' AND ${accessRules.subjId} = ${id}))`,
  ).all();
}

async function subjectType(db: Db, id: string): Promise<"user" | "group"> {
  const [u, g] = await db.batch([
    db.select({ id: users.userId }).from(users).where(eq(users.userId, id)),
    db
      .select({ id: groups.groupId })
      .from(groups)
      .where(and(eq(groups.groupId, id), isNull(groups.deletedAt))),
  ]);
  if (u.length) return "user";
  if (g.length) return "group";
  throw new ApiError("not_found", "Субъект правила не найден: нет такого пользователя или группы", [
    { field: "subj", message: "не найден" },
  ]);
}

async function objectType(db: Db, id: string): Promise<"asset" | "group"> {
  if (id === VIRTUAL_ROOT_ID)
    throw new ApiError("bad_request", "Правило на виртуальный корень не имеет смысла: выберите группу", [
      { field: "obj", message: "виртуальный корень" },
    ]);
  const obj = (await resolveObjects(db, [id])).get(id);
  if (!obj)
    throw new ApiError("not_found", "Объект правила не найден: нет такой группы или файла", [{ field: "obj", message: "не найден" }]);
  return obj.type;
}

const dedupe = (acl: Permission[]) => [...new Set(acl)];
const duplicateRule = () => new ApiError("conflict", "Правило для этого субъекта и объекта уже есть: измените его");

export async function createRule(db: Db, auth: AuthUser, body: { subj: string; obj: string; acl: Permission[] }) {
  requireAdmin(auth);
  const [subjType, objType] = await Promise.all([subjectType(db, body.subj), objectType(db, body.obj)]);
  const existing = await db
    .select({ id: accessRules.ruleId })
    .from(accessRules)
    .where(and(eq(accessRules.subjId, body.subj), eq(accessRules.objId, body.obj)))
    .get();
  if (existing) throw duplicateRule();
  const ruleId = newId();
  try {
    await db.batch([
      db
        .insert(accessRules)
        .values({ ruleId, subjId: body.subj, subjType, objId: body.obj, objType, acl: dedupe(body.acl), ctime: nowSeconds() }),
      eventInsert(db, {
        kind: "acl.created",
        userId: auth.userId,
        entityType: objType,
        entityId: body.obj,
        data: { rule_id: ruleId, subj: body.subj, acl: body.acl },
      }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateRule();
    throw err;
  }
  return getRule(db, auth, ruleId);
}

export async function updateRule(db: Db, auth: AuthUser, id: string, acl: Permission[]) {
  const rule = await getRule(db, auth, id);
  await db.batch([
    db
      .update(accessRules)
      .set({ acl: dedupe(acl) })
      .where(eq(accessRules.ruleId, id)),
    eventInsert(db, {
      kind: "acl.updated",
      userId: auth.userId,
      entityType: rule.obj_type,
      entityId: rule.obj_id,
      data: { rule_id: id, acl },
    }),
  ]);
  return getRule(db, auth, id);
}

export async function deleteRule(db: Db, auth: AuthUser, id: string) {
  const rule = await getRule(db, auth, id);
  await db.batch([
    db.delete(accessRules).where(eq(accessRules.ruleId, id)),
    eventInsert(db, { kind: "acl.deleted", userId: auth.userId, entityType: rule.obj_type, entityId: rule.obj_id, data: { rule_id: id } }),
  ]);
  return { ok: true as const };
}

/**
 * Who has what on objects: every rule on the object or on a group above it (for an asset: above
 * any of its groups). Needs `acl` on each object (admins pass); unreadable ids answer 404. A group the
 * caller cannot read is never named: a rule set above the caller's reach shows no object, and a team
 * the caller cannot read shows no id or name (the rights are still listed, so the picture stays whole).
 */
export async function entityUserAccess(db: Db, auth: AuthUser, ids: string[]) {
  const [objects, ctx] = await Promise.all([
    requireAccess(db, auth, "acl", ids, { notFound: "Объект не найден" }),
    accessContext(db, auth),
  ]);
  const reach = new Map<string, string[]>();
  /** Paths of the groups above (and of) each object, from the objects' own paths: no query needed. */
  const groupPaths = new Map<string, string>();
  for (const id of ids) {
    const o = objects.get(id)!;
    for (const path of o.type === "group" ? [o.path] : o.placements) {
      pathIds(path).forEach((gid, i, all) => {
        groupPaths.set(gid, `/${all.slice(0, i + 1).join("/")}/`);
      });
    }
    const above = o.type === "group" ? pathIds(o.path) : o.placements.flatMap(pathIds);
    reach.set(id, [...new Set([id, ...above])]);
  }
  const all = [...new Set([...reach.values()].flat())];
  const rules = await selectRules(db, inArray(accessRules.objId, idList(all))).all();
  const teamIds = [...new Set(rules.filter((r) => r.subj_type === "group").map((r) => r.subj_id))];
  const teams = teamIds.length
    ? await db
        .select({ id: groups.groupId, path: groups.path })
        .from(groups)
        .where(inArray(groups.groupId, idList(teamIds)))
        .all()
    : [];
  const readable = (path: string | undefined) => path !== undefined && groupPermissions(ctx, path) !== null;
  const teamReadable = new Set(teams.filter((t) => readable(t.path)).map((t) => t.id));
  const shown = (r: (typeof rules)[number]) => ({
    ...r,
    ...(r.obj_type === "group" && !readable(groupPaths.get(r.obj_id)) ? { obj_id: null, obj_name: null } : {}),
    ...(r.subj_type === "group" && !teamReadable.has(r.subj_id) ? { subj_id: null, subj_name: null } : {}),
  });
  return ids.map((id) => {
    const objs = new Set(reach.get(id));
    return { id, rules: rules.filter((r) => objs.has(r.obj_id)).map((r) => ({ ...shown(r), inherited: r.obj_id !== id })) };
  });
}
