import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import {
  accessRules,
  apiTokens,
  appPasswords,
  assets,
  groupMembers,
  groups,
  sessions,
  ssoCodes,
  ssoLinks,
  taskTemplates,
  tasks,
  udwfShares,
  udwfWorkflows,
  users,
  variants,
  wopiLocks,
} from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAdmin } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId, randomSecret, sha256Hex } from "../lib/ids";
import { hashPassword } from "../lib/password";
import { idList, clashOnUnique } from "../lib/sql";
import { assertStorageExists } from "../lib/storage";
import { usedBytes } from "../lib/quota";
import type { CreateUserBody, UpdateUserBody } from "../../shared/users/schemas";

/** User administration (admins only) and robots' API tokens. Password hashes never leave this file. */

export const userColumns = {
  user_id: users.userId,
  user_name: users.userName,
  enabled: users.enabled,
  login: users.login,
  chroot_groups: users.chrootGroups,
  default_storage: users.defaultStorage,
  is_robot: users.isRobot,
  acl_count: sql<number>`(SELECT count(*) FROM access_rules r WHERE r.subj_id = ${users.userId})`,
  quota: users.quota,
  quota_used: usedBytes(users.userId).mapWith(Number),
};

const userNotFound = () => new ApiError("not_found", "Пользователь не найден");
const loginTaken = () => new ApiError("conflict", "Этот логин уже занят", [{ field: "user_login", message: "логин занят" }]);

/**
 * LIKE patterns for the user search. SQLite's LIKE (and lower()) fold only ASCII case, so a Cyrillic
 * name is also tried as typed, in lower case and with capitalised words ("иван" finds "Иван Петров").
 * A full fix is a normalised search column, as groups have (name_key).
 */
export function searchPatterns(text: string): string[] {
  const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, "\\$&")}%`;
  const lower = text.toLocaleLowerCase("ru");
  const title = lower.replace(/(^|\s)(\S)/gu, (_, space: string, first: string) => space + first.toLocaleUpperCase("ru"));
  return [...new Set([text, lower, title])].map(likePattern);
}

export async function listUsers(
  db: Db,
  auth: AuthUser,
  q: { enabled?: "true" | "false"; q?: string; group?: string; skip: number; take: number },
) {
  requireAdmin(auth);
  const likes = q.q ? searchPatterns(q.q) : [];
  return db
    .select(userColumns)
    .from(users)
    .where(
      and(
        q.enabled === undefined ? undefined : eq(users.enabled, q.enabled === "true"),
        likes.length
          ? or(...likes.flatMap((like) => [sql`${users.login} LIKE ${like} ESCAPE '\\'`, sql`${users.userName} LIKE ${like} ESCAPE '\\'`]))
          : undefined,
        // The members of one team (the admin screen of a group lists them).
        q.group
          ? sql`EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = ${q.group} AND m.el_type = 'user' AND m.el_id = ${users.userId})`
          : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${users.userName})`), asc(users.userId))
    .limit(q.take)
    .offset(q.skip)
    .all();
}

export async function getUser(db: Db, auth: AuthUser, id: string) {
  requireAdmin(auth);
  const row = await db.select(userColumns).from(users).where(eq(users.userId, id)).get();
  if (!row) throw userNotFound();
  return row;
}

async function assertChrootGroups(db: Db, ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await db
    .select({ id: groups.groupId })
    .from(groups)
    .where(and(inArray(groups.groupId, idList(ids)), isNull(groups.deletedAt)))
    .all();
  if (found.length !== new Set(ids).size) {
    throw new ApiError("validation", "Неверные данные: «chroot_groups»: группа не найдена", [
      { field: "chroot_groups", message: "группа не найдена" },
    ]);
  }
}

const mapLoginClash = <T>(run: () => Promise<T>) => clashOnUnique(run, loginTaken);

export async function createUser(db: Db, auth: AuthUser, body: CreateUserBody) {
  requireAdmin(auth);
  await assertChrootGroups(db, body.chroot_groups);
  await assertStorageExists(db, body.default_storage, "default_storage");
  const userId = newId();
  const now = nowSeconds();
  await mapLoginClash(async () =>
    db.batch([
      db.insert(users).values({
        userId,
        userName: body.user_name,
        login: body.user_login,
        passwdHash: await hashPassword(body.user_passwd),
        enabled: body.enabled,
        isRobot: body.is_robot,
        chrootGroups: [...new Set(body.chroot_groups)],
        defaultStorage: body.default_storage ?? null,
        quota: body.quota ?? null,
        ctime: now,
        mtime: now,
      }),
      eventInsert(db, {
        kind: "user.created",
        userId: auth.userId,
        entityType: "user",
        entityId: userId,
        data: { login: body.user_login },
      }),
    ]),
  );
  return { user_id: userId };
}

/** Disabling a user or changing the password ends every session at once (tokens stop with `enabled`). */
export async function updateUser(db: Db, auth: AuthUser, id: string, body: UpdateUserBody) {
  await getUser(db, auth, id);
  if (id === auth.userId && body.enabled === false) throw new ApiError("bad_request", "Нельзя отключить собственную учётную запись");
  await assertChrootGroups(db, body.chroot_groups);
  await assertStorageExists(db, body.default_storage, "default_storage");
  const now = nowSeconds();
  const endSessions = body.enabled === false || body.user_passwd !== undefined;
  const changed = Object.keys(body).filter((k) => k !== "user_passwd" && body[k as keyof UpdateUserBody] !== undefined);
  await mapLoginClash(async () =>
    db.batch([
      db
        .update(users)
        .set({
          mtime: now,
          ...(body.user_name !== undefined ? { userName: body.user_name } : {}),
          ...(body.user_login !== undefined ? { login: body.user_login } : {}),
          ...(body.user_passwd !== undefined ? { passwdHash: await hashPassword(body.user_passwd) } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
          ...(body.chroot_groups !== undefined ? { chrootGroups: [...new Set(body.chroot_groups)] } : {}),
          ...(body.default_storage !== undefined ? { defaultStorage: body.default_storage } : {}),
          ...(body.is_robot !== undefined ? { isRobot: body.is_robot } : {}),
          ...(body.quota !== undefined ? { quota: body.quota } : {}),
        })
        .where(eq(users.userId, id)),
      ...(endSessions
        ? [
            db
              .update(sessions)
              .set({ revokedAt: now })
              .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt))),
          ]
        : []),
      eventInsert(db, {
        kind: "user.updated",
        userId: auth.userId,
        entityType: "user",
        entityId: id,
        data: { fields: body.user_passwd !== undefined ? [...changed, "user_passwd"] : changed, sessions_ended: endSessions },
      }),
    ]),
  );
  return getUser(db, auth, id);
}

/** Deletes the user with their sessions, tokens (FK cascade), rules and team memberships. */
/**
 * One batch, so nothing is left half-owned: what the user owns (assets, groups, workflows, task
 * templates and tasks, and the stored bytes counted against a quota) passes to the heir (the caller
 * unless named); every way in ends (sessions, API tokens, app passwords, SSO links and codes, office
 * locks); their rules, team memberships and workflow shares go. Authorship (versions, events, values)
 * keeps the old id: it says who did it, not who owns it (docs/decisions/056-trash-and-admin-actions.md).
 */
export async function deleteUser(db: Db, auth: AuthUser, id: string, heirId: string = auth.userId) {
  await getUser(db, auth, id);
  if (id === auth.userId) throw new ApiError("bad_request", "Нельзя удалить собственную учётную запись");
  if (heirId === id)
    throw new ApiError("bad_request", "Наследник не может быть удаляемым пользователем", [
      { field: "heir", message: "другой пользователь" },
    ]);
  const heir = await db.select({ id: users.userId }).from(users).where(eq(users.userId, heirId)).get();
  if (!heir) throw new ApiError("bad_request", "Наследник не найден", [{ field: "heir", message: "нет такого пользователя" }]);
  await db.batch([
    db.update(assets).set({ owner: heirId }).where(eq(assets.owner, id)),
    db.update(groups).set({ owner: heirId }).where(eq(groups.owner, id)),
    db.update(udwfWorkflows).set({ owner: heirId }).where(eq(udwfWorkflows.owner, id)),
    db.update(udwfWorkflows).set({ actor: heirId }).where(eq(udwfWorkflows.actor, id)),
    db.update(taskTemplates).set({ owner: heirId }).where(eq(taskTemplates.owner, id)),
    db.update(tasks).set({ owner: heirId }).where(eq(tasks.owner, id)),
    db.update(variants).set({ userId: heirId }).where(eq(variants.userId, id)),
    db.delete(sessions).where(eq(sessions.userId, id)),
    db.delete(apiTokens).where(eq(apiTokens.userId, id)),
    db.delete(appPasswords).where(eq(appPasswords.userId, id)),
    db.delete(ssoLinks).where(eq(ssoLinks.userId, id)),
    db.delete(ssoCodes).where(eq(ssoCodes.userId, id)),
    db.delete(wopiLocks).where(eq(wopiLocks.userId, id)),
    db.delete(udwfShares).where(and(eq(udwfShares.subjType, "user"), eq(udwfShares.subjId, id))),
    db.delete(accessRules).where(and(eq(accessRules.subjType, "user"), eq(accessRules.subjId, id))),
    db.delete(groupMembers).where(and(eq(groupMembers.elType, "user"), eq(groupMembers.elId, id))),
    db.delete(users).where(eq(users.userId, id)),
    eventInsert(db, { kind: "user.deleted", userId: auth.userId, entityType: "user", entityId: id, data: { heir: heirId } }),
  ]);
  return { ok: true as const };
}

const tokenColumns = {
  token_id: apiTokens.tokenId,
  name: apiTokens.name,
  ctime: apiTokens.ctime,
  expires_at: apiTokens.expiresAt,
  revoked_at: apiTokens.revokedAt,
};

async function robot(db: Db, auth: AuthUser, id: string) {
  const u = await getUser(db, auth, id);
  if (!u.is_robot) throw new ApiError("bad_request", "API-токены выдаются только роботам (is_robot)");
}

/** A new `mam_…` token; the secret is returned this once, only its SHA-256 is stored. */
export async function issueToken(db: Db, auth: AuthUser, id: string, body: { name: string; expires_in_days?: number }) {
  await robot(db, auth, id);
  const tokenId = newId();
  const token = `mam_${randomSecret(32)}`;
  const now = nowSeconds();
  const expiresAt = body.expires_in_days ? now + body.expires_in_days * 86400 : null;
  await db.batch([
    db.insert(apiTokens).values({ tokenId, userId: id, name: body.name, tokenHash: await sha256Hex(token), ctime: now, expiresAt }),
    eventInsert(db, {
      kind: "user.token_issued",
      userId: auth.userId,
      entityType: "user",
      entityId: id,
      data: { token_id: tokenId, name: body.name },
    }),
  ]);
  return { token_id: tokenId, name: body.name, ctime: now, expires_at: expiresAt, revoked_at: null, token };
}

export async function listTokens(db: Db, auth: AuthUser, id: string) {
  await getUser(db, auth, id);
  return db.select(tokenColumns).from(apiTokens).where(eq(apiTokens.userId, id)).orderBy(asc(apiTokens.ctime)).all();
}

export async function revokeToken(db: Db, auth: AuthUser, id: string, tokenId: string) {
  await getUser(db, auth, id);
  const now = nowSeconds();
  const [revoked] = await db.batch([
    db
      .update(apiTokens)
      .set({ revokedAt: sql`coalesce(${apiTokens.revokedAt}, ${now})` })
      .where(and(eq(apiTokens.tokenId, tokenId), eq(apiTokens.userId, id)))
      .returning({ id: apiTokens.tokenId }),
    eventInsert(db, { kind: "user.token_revoked", userId: auth.userId, entityType: "user", entityId: id, data: { token_id: tokenId } }),
  ]);
  if (revoked.length === 0) throw new ApiError("not_found", "Токен не найден");
  return { ok: true as const };
}

/** Teams the user is a member of: admins for anyone, a user for themself. */
export async function membership(db: Db, auth: AuthUser, id: string) {
  if (id !== auth.userId) await getUser(db, auth, id);
  return db
    .select({ group_id: groups.groupId, group_name: groups.groupName })
    .from(groupMembers)
    .innerJoin(groups, and(eq(groups.groupId, groupMembers.groupId), isNull(groups.deletedAt)))
    .where(and(eq(groupMembers.elType, "user"), eq(groupMembers.elId, id)))
    .orderBy(asc(groups.nameKey))
    .all();
}

/** Replaces the user's teams (admins): removals and additions in one batch. */
export async function setMembership(db: Db, auth: AuthUser, id: string, groupIds: string[]) {
  await getUser(db, auth, id);
  const wanted = [...new Set(groupIds)];
  await assertChrootGroups(db, wanted).catch(() => {
    throw new ApiError("not_found", "Группа не найдена");
  });
  const now = nowSeconds();
  await db.batch([
    db
      .delete(groupMembers)
      .where(and(eq(groupMembers.elType, "user"), eq(groupMembers.elId, id), sql`${groupMembers.groupId} NOT IN ${idList(wanted)}`)),
    ...(wanted.length
      ? [
          db
            .insert(groupMembers)
            .values(wanted.map((groupId) => ({ groupId, elId: id, elType: "user" as const, ctime: now })))
            .onConflictDoNothing(),
        ]
      : []),
    eventInsert(db, { kind: "user.membership_set", userId: auth.userId, entityType: "user", entityId: id, data: { groups: wanted } }),
  ]);
  return membership(db, auth, id);
}
