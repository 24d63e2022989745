import type { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { type ContextRows, contextStatements, primeAccessContext } from "./access-context";
import { type Db, getDb } from "./db";
import { type RawStatement, rawBatch, rawStatement } from "./sql";
import type { AppEnv, AuthUser, Env } from "./env";
import { ApiError } from "./errors";
import { sha256Hex } from "./ids";
import { verifyBearer } from "./jwt";

/** A route served without a bearer: its method and a pattern of its full path. */
export interface OpenRoute {
  method: string;
  path: RegExp;
}

/** `/api/sl/{id}/play` as a pattern matching one path segment per parameter. */
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);

/**
 * The routes that need no sign-in, read off their definitions: a route says so with `security: []` on
 * its createRoute (sign-in, refresh, logout, single sign-on, version, health, the transcoder's
 * callbacks, share links and signed URLs), and nothing else lists them. `base` is the app's base path.
 */
export function openRoutesOf(app: OpenAPIHono<AppEnv>, base: string): OpenRoute[] {
  return app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === "route" && Array.isArray(d.route.security) && d.route.security.length === 0
      ? [{ method: d.route.method.toUpperCase(), path: templatePattern(base + d.route.path) }]
      : [],
  );
}

const isOpen = (routes: OpenRoute[], method: string, path: string) => {
  const m = method === "HEAD" ? "GET" : method;
  return routes.some((r) => r.method === m && r.path.test(path));
};

/**
 * Resolves a bearer to a signed-in user. The session row is checked on every request, so logout,
 * a detected refresh-token reuse or disabling the user ends access at once, not at bearer expiry.
 * The caller's access context is loaded in the same batch: one round trip for both, nothing cached.
 */
export async function authenticate(env: Env, bearer: string): Promise<AuthUser | null> {
  const claims = await verifyBearer(env.JWT_SECRET, bearer);
  return claims ? sessionUser(env, claims.sessionId, claims.userId) : null;
}

/** The users columns of an AuthUser (all but its sessionId), for every check that resolves a caller. */
export const authUserColumns = {
  userId: users.userId,
  userName: users.userName,
  login: users.login,
  isAdmin: users.isAdmin,
  isRobot: users.isRobot,
  chrootGroups: users.chrootGroups,
};

/** AuthUser's columns of `users u` as the raw sign-in statements select them (signInBatch decodes them). */
export const authUserSelect =
  "u.user_id AS userId, u.user_name AS userName, u.login, u.is_admin AS isAdmin, u.is_robot AS isRobot, u.chroot_groups AS chrootGroups";

type AuthFields = Omit<AuthUser, "sessionId">;

/**
 * The caller's row (`row` selects authUserSelect, and may add columns) and its access context, in one round trip with
 * nothing cached; null when no row matched. `user`/`key` name the caller for the context (lib/access-context.ts
 * contextStatements). The caller primes the context once it made its AuthUser.
 */
export async function signInBatch<Extra extends Record<string, unknown>>(
  db: Db,
  row: RawStatement,
  user: string,
  key: string,
): Promise<{ found: AuthFields & Extra; context: ContextRows } | null> {
  const [[found], ...context] = await rawBatch(db, [row, ...contextStatements(user, key)], "read");
  if (!found) return null;
  const fields: AuthFields = {
    userId: found.userId as string,
    userName: found.userName as string,
    login: found.login as string,
    isAdmin: Boolean(found.isAdmin),
    isRobot: Boolean(found.isRobot),
    chrootGroups: JSON.parse(found.chrootGroups as string) as string[],
  };
  return { found: { ...(found as Extra), ...fields }, context };
}

/** The user of a live sign-in session (the session row, not a bearer), with its access context; null once it ended. */
async function sessionUser(env: Env, sessionId: string, userId?: string): Promise<AuthUser | null> {
  const session = rawStatement(
    `SELECT ${authUserSelect}, s.session_id AS sessionId FROM sessions s JOIN users u ON u.user_id = s.user_id
      WHERE s.session_id = ?1 AND (?2 IS NULL OR s.user_id = ?2) AND s.revoked_at IS NULL AND s.expires_at > ?3 AND u.enabled = 1
      LIMIT 1`,
    sessionId,
    userId ?? null,
    nowSeconds(),
  );
  const signedIn =
    userId === undefined
      ? await signInBatch<{ sessionId: string }>(getDb(env), session, "(SELECT user_id FROM sessions WHERE session_id = ?1)", sessionId)
      : await signInBatch<{ sessionId: string }>(getDb(env), session, "?1", userId);
  if (!signedIn) return null;
  primeAccessContext(signedIn.found, signedIn.context);
  return signedIn.found;
}

/** Robot API tokens carry this prefix, so the middleware knows which check to run. */
export const apiTokenPrefix = "mam_";

/**
 * Resolves a robot's API token (issued by an admin, stored as SHA-256). Checked on every request, so
 * revoking the token, disabling the user or clearing is_robot ends access at once.
 */
export async function authenticateToken(env: Env, token: string): Promise<AuthUser | null> {
  return robotUser(env, "token_hash", await sha256Hex(token));
}

/** A robot's live API token, found by its hash (a request) or its id (a play link, functions/assets/play-links.ts). */
async function robotUser(env: Env, by: "token_hash" | "token_id", value: string): Promise<AuthUser | null> {
  const robot = rawStatement(
    `SELECT ${authUserSelect}, t.token_id AS tokenId FROM api_tokens t JOIN users u ON u.user_id = t.user_id
      WHERE t.${by} = ?1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?2) AND u.enabled = 1 AND u.is_robot = 1
      LIMIT 1`,
    value,
    nowSeconds(),
  );
  const signedIn = await signInBatch<{ tokenId: string }>(getDb(env), robot, `(SELECT user_id FROM api_tokens WHERE ${by} = ?1)`, value);
  if (!signedIn) return null;
  const { tokenId, ...rest } = signedIn.found;
  const user = { ...rest, sessionId: `${tokenSessionPrefix}${tokenId}` };
  primeAccessContext(user, signedIn.context);
  return user;
}

/** A robot's requests run in the "session" `token:<token id>`. */
const tokenSessionPrefix = "token:";

/**
 * The caller behind a session id as AuthUser.sessionId names it (a sign-in session, or a robot's
 * `token:<id>`), while that session or token is still live: what a play link is bound to.
 */
export function liveSession(env: Env, sessionId: string): Promise<AuthUser | null> {
  return sessionId.startsWith(tokenSessionPrefix)
    ? robotUser(env, "token_id", sessionId.slice(tokenSessionPrefix.length))
    : sessionUser(env, sessionId);
}

/** The bearer (or robot token) check for every route but the open ones (read when a request comes, after all routes are registered). */
export const requireAuth = (openRoutes: () => OpenRoute[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (isOpen(openRoutes(), c.req.method, c.req.path)) return next();
    const header = c.req.header("Authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const token = match?.[1];
    const auth = !token
      ? null
      : token.startsWith(apiTokenPrefix)
        ? await authenticateToken(c.env, token)
        : await authenticate(c.env, token);
    if (!auth) throw new ApiError("unauthorized", "Требуется вход в систему");
    c.set("auth", auth);
    await next();
  });

export function requireAdmin(auth: AuthUser) {
  if (!auth.isAdmin) throw new ApiError("forbidden", "Доступно только администраторам");
}
