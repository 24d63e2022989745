import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { apiTokens, sessions, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { contextQueries, primeAccessContext } from "./access";
import { getDb } from "./db";
import type { AppEnv, AuthUser, Env } from "./env";
import { ApiError } from "./errors";
import { sha256Hex } from "./ids";
import { verifyBearer } from "./jwt";
import { literal } from "./sql";

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

/** The user of a live sign-in session (the session row, not a bearer), with its access context; null once it ended. */
async function sessionUser(env: Env, sessionId: string, userId?: string): Promise<AuthUser | null> {
  const db = getDb(env);
  const session = db
    .select({ ...authUserColumns, sessionId: sessions.sessionId })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .where(
      and(
        eq(sessions.sessionId, sessionId),
        userId === undefined ? undefined : eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, nowSeconds()),
        eq(users.enabled, true),
      ),
    )
    .limit(1);
  const owner = userId === undefined ? sql`(SELECT user_id FROM sessions WHERE session_id = ${literal(sessionId)})` : literal(userId);
  const [[row], ...context] = await db.batch([session, ...contextQueries(db, owner)]);
  if (!row) return null;
  primeAccessContext(row, context);
  return row;
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
  const now = nowSeconds();
  const db = getDb(env);
  const robot = db
    .select({ ...authUserColumns, tokenId: apiTokens.tokenId })
    .from(apiTokens)
    .innerJoin(users, eq(users.userId, apiTokens.userId))
    .where(
      and(
        by === "token_hash" ? eq(apiTokens.tokenHash, value) : eq(apiTokens.tokenId, value),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
        eq(users.enabled, true),
        eq(users.isRobot, true),
      ),
    )
    .limit(1);
  const owner = sql`(SELECT user_id FROM api_tokens WHERE ${sql.raw(by)} = ${literal(value)})`;
  const [[row], ...context] = await db.batch([robot, ...contextQueries(db, owner)]);
  if (!row) return null;
  const { tokenId, ...rest } = row;
  const user = { ...rest, sessionId: `${tokenSessionPrefix}${tokenId}` };
  primeAccessContext(user, context);
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
