import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { sessions, users } from "../../db/schema";
import { accessContext } from "../lib/access";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId, randomSecret, sha256Hex } from "../lib/ids";
import { signBearer } from "../lib/jwt";
import { decoyPasswordHash, verifyPassword } from "../lib/password";
import { admitAttempt, successWrites, throttleKeys } from "./rate-limit";
import type { LoginBody } from "../../shared/auth/schemas";

export interface ClientMeta {
  ip: string;
  userAgent: string | null;
}

/** Idle lifetime of a sign-in: every refresh moves it forward (the refresh cookie lives as long). */
export const refreshTtlSeconds = 30 * 24 * 3600;

export interface SignedIn {
  bearer: string;
  expire: number;
  sessionId: string;
  refreshSecret: string;
}

const badCredentials = () => new ApiError("unauthorized", "Неверный логин или пароль");

/** Password sign-in: the attempt counted first (functions/auth/rate-limit.ts), constant-work verification, then a new session family. */
export async function login(db: Db, env: Env, body: LoginBody, meta: ClientMeta): Promise<SignedIn> {
  const now = nowSeconds();
  const keys = throttleKeys(body.user, meta.ip);
  await admitAttempt(db, keys, now);

  const user = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.login})`, body.user.toLowerCase()))
    .get();
  // Verify against a decoy when there is no such login, so both answers take the same time.
  const valid = user?.passwdHash
    ? await verifyPassword(body.passwd, user.passwdHash)
    : (await verifyPassword(body.passwd, await decoyPasswordHash())) && false;
  if (!user || !valid) {
    // Already counted by admitAttempt: only the audit trail is left to write.
    await eventInsert(db, { kind: "auth.login_failed", userId: user?.userId, data: { login: body.user, ip: meta.ip } }).run();
    throw badCredentials();
  }
  if (!user.enabled) throw new ApiError("forbidden", "Учётная запись отключена");
  return startSession(db, env, user.userId, meta, now, { method: "password" }, successWrites(db, keys));
}

/** A new session family for a user already checked (password here, single sign-on in functions/sso/codes.ts). */
export async function startSession(
  db: Db,
  env: Env,
  userId: string,
  meta: ClientMeta,
  now: number,
  how: Record<string, string>,
  alsoWrite: BatchItem<"sqlite">[] = [],
): Promise<SignedIn> {
  const sessionId = newId();
  const refreshSecret = randomSecret();
  await db.batch([
    db.insert(sessions).values({
      sessionId,
      userId,
      refreshHash: await sha256Hex(refreshSecret),
      ctime: now,
      expiresAt: now + refreshTtlSeconds,
      userAgent: meta.userAgent,
      ip: meta.ip,
    }),
    ...alsoWrite,
    eventInsert(db, { kind: "auth.login", userId, entityType: "user", entityId: userId, data: { ip: meta.ip, ...how } }),
  ]);
  const { bearer, expire } = await signBearer(env.JWT_SECRET, userId, sessionId, now);
  return { bearer, expire, sessionId, refreshSecret };
}

/**
 * Rotates the refresh secret (compare-and-swap on its hash). A secret that is not the current one
 * means it was already rotated away, i.e. copied: the whole session family is revoked.
 */
export async function refresh(db: Db, env: Env, sessionId: string, secret: string): Promise<SignedIn> {
  const now = nowSeconds();
  const session = await db
    .select({ userId: sessions.userId, expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt, enabled: users.enabled })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .where(eq(sessions.sessionId, sessionId))
    .get();
  const expired = new ApiError("unauthorized", "Сеанс истёк, войдите снова");
  if (!session || session.revokedAt !== null || session.expiresAt <= now || !session.enabled) throw expired;

  const nextSecret = randomSecret();
  const rotated = await db
    .update(sessions)
    .set({ refreshHash: await sha256Hex(nextSecret), expiresAt: now + refreshTtlSeconds })
    .where(and(eq(sessions.sessionId, sessionId), eq(sessions.refreshHash, await sha256Hex(secret)), isNull(sessions.revokedAt)))
    .returning({ id: sessions.sessionId });
  if (rotated.length === 0) {
    await revokeSession(db, sessionId, session.userId, "auth.refresh_reuse");
    throw expired;
  }
  const { bearer, expire } = await signBearer(env.JWT_SECRET, session.userId, sessionId, now);
  return { bearer, expire, sessionId, refreshSecret: nextSecret };
}

export async function revokeSession(db: Db, sessionId: string, userId: string | null, kind = "auth.logout") {
  await db.batch([
    db
      .update(sessions)
      .set({ revokedAt: nowSeconds() })
      .where(and(eq(sessions.sessionId, sessionId), isNull(sessions.revokedAt))),
    eventInsert(db, { kind, userId, entityType: "session", entityId: sessionId }),
  ]);
}

/** Logout by refresh cookie: only the holder of the current secret may end the session. */
export async function logout(db: Db, sessionId: string, secret: string) {
  const session = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.sessionId, sessionId), eq(sessions.refreshHash, await sha256Hex(secret))))
    .get();
  if (session) await revokeSession(db, sessionId, session.userId);
}

/** Whether any access rule applies to the user, directly or through a team (the engine's context). */
export async function hasAnyAcls(db: Db, auth: AuthUser) {
  const ctx = await accessContext(db, auth);
  return ctx.grants.length + ctx.denyPaths.length + ctx.assetGrants.size + ctx.assetDenies.size > 0;
}
