import { and, eq, isNull, sql } from "drizzle-orm";
import { appPasswords, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { admitAttempt, successWrites, throttleKeys } from "../auth/rate-limit";
import { primeAccessContext } from "../lib/access";
import { apiTokenPrefix, authenticate, authenticateToken, authUserSelect, signInBatch } from "../lib/auth";
import { getDb } from "../lib/db";
import { rawStatement } from "../lib/sql";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { sha256Hex } from "../lib/ids";
import { decoyPasswordHash, verifyPassword } from "../lib/password";

/** App passwords carry this prefix, so a Basic password is told from an account password without a guess. */
export const appPasswordPrefix = "mamapp_";

/**
 * A checked account password is remembered for a short while in this isolate (by the hash of login and
 * password, never the password), so a client that sends it with every request does not pay a scrypt each
 * time. The entry holds the stored hash it was checked against: a changed password ends it at once, and
 * the user row (enabled) and rules are still read on every request. App passwords are checked every time
 * (one SHA-256 and one lookup), so revoking one ends access at once.
 */
const verified = new Map<string, { userId: string; passwdHash: string; until: number }>();
const rememberSeconds = 300;
/**
 * Checks under way, by the same key: a client that opens with several requests at once (rclone's parallel
 * transfers) waits for one check instead of making one each, which the sign-in throttle counted as that many
 * attempts and answered 429 beyond its limit.
 */
const checking = new Map<string, Promise<{ userId: string; passwdHash: string }>>();

export const unauthorized = () => new ApiError("unauthorized", "Требуется вход: логин и пароль (или пароль приложения)");

/** The caller of a WebDAV request: Bearer (session or robot token) or Basic (login + account or app password). */
export async function davUser(env: Env, req: Request): Promise<AuthUser> {
  const header = req.headers.get("Authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer) {
    const user = bearer.startsWith(apiTokenPrefix) ? await authenticateToken(env, bearer) : await authenticate(env, bearer);
    if (!user) throw unauthorized();
    return user;
  }
  const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1];
  if (!basic) throw unauthorized();
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(basic), (c) => c.charCodeAt(0)));
  } catch {
    throw unauthorized();
  }
  const colon = decoded.indexOf(":");
  if (colon < 1) throw unauthorized();
  const [login, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if (password.startsWith(appPasswordPrefix)) {
    const found = await liveUser(env, await byAppPassword(env, login, password));
    if (!found) throw unauthorized();
    return found.user;
  }
  const key = await sha256Hex(`${login.toLowerCase()}\0${password}`);
  const now = nowSeconds();
  const hit = verified.get(key);
  if (hit && hit.until > now) {
    const found = await liveUser(env, hit.userId);
    if (found && found.passwdHash === hit.passwdHash) return found.user;
    // The user is gone or their password changed since: the password is checked again, as on a first request (an
    // account deleted and made again under the same login and password signs in at once).
    verified.delete(key);
  }
  let check = checking.get(key);
  if (!check) {
    check = byPassword(env, req, login, password).finally(() => checking.delete(key));
    checking.set(key, check);
  }
  const checked = { ...(await check), until: now + rememberSeconds };
  const found = await liveUser(env, checked.userId);
  if (!found || found.passwdHash !== checked.passwdHash) throw unauthorized();
  verified.set(key, checked);
  return found.user;
}

/** An account password, counted and throttled exactly like sign-in (functions/auth/rate-limit.ts). */
async function byPassword(env: Env, req: Request, login: string, password: string): Promise<{ userId: string; passwdHash: string }> {
  const db = getDb(env);
  const now = nowSeconds();
  const keys = throttleKeys(login, req.headers.get("CF-Connecting-IP") ?? "local");
  await admitAttempt(db, keys, now);
  const user = await db
    .select({ userId: users.userId, hash: users.passwdHash, enabled: users.enabled })
    .from(users)
    .where(eq(sql`lower(${users.login})`, login.toLowerCase()))
    .get();
  const valid = user?.hash
    ? await verifyPassword(password, user.hash)
    : (await verifyPassword(password, await decoyPasswordHash())) && false;
  if (!user?.hash || !valid || !user.enabled) {
    await eventInsert(db, { kind: "auth.login_failed", userId: user?.userId, data: { login, via: "webdav" } }).run();
    throw unauthorized();
  }
  const [first, ...rest] = successWrites(db, keys);
  await db.batch([first, ...rest]);
  return { userId: user.userId, passwdHash: user.hash };
}

/** An app password of that login's user, not revoked (only its hash is stored). */
async function byAppPassword(env: Env, login: string, password: string): Promise<string> {
  const db = getDb(env);
  const row = await db
    .select({ id: appPasswords.passwordId, userId: appPasswords.userId })
    .from(appPasswords)
    .innerJoin(users, eq(users.userId, appPasswords.userId))
    .where(
      and(
        eq(appPasswords.secretHash, await sha256Hex(password)),
        isNull(appPasswords.revokedAt),
        eq(sql`lower(${users.login})`, login.toLowerCase()),
      ),
    )
    .get();
  if (!row) throw unauthorized();
  await db.update(appPasswords).set({ lastUsed: nowSeconds() }).where(eq(appPasswords.passwordId, row.id));
  return row.userId;
}

/** The enabled user with their access context, loaded in one round trip (as the bearer check does). */
async function liveUser(env: Env, userId: string): Promise<{ user: AuthUser; passwdHash: string | null } | null> {
  const row = rawStatement(
    `SELECT ${authUserSelect}, u.passwd_hash AS passwdHash FROM users u WHERE u.user_id = ?1 AND u.enabled = 1`,
    userId,
  );
  const signedIn = await signInBatch<{ passwdHash: string | null }>(getDb(env), row, "?1", userId);
  if (!signedIn) return null;
  const { passwdHash, ...fields } = signedIn.found;
  const user = { ...fields, sessionId: `dav:${userId}` };
  primeAccessContext(user, signedIn.context);
  return { user, passwdHash };
}
