import { and, eq, gt, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { sessions, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "./db";
import type { AppEnv, AuthUser, Env } from "./env";
import { ApiError } from "./errors";
import { verifyBearer } from "./jwt";

/** The only routes served without a bearer (issue: login, refresh, logout, sso*, version, health). */
const openRoutes: RegExp[] = [
  /^\/api\/auth\/(login|refresh|logout|sso-providers)$/,
  /^\/api\/auth\/sso(-cb)?\/[^/]+$/,
  /^\/api\/(version|health)$/,
];

export const isOpenRoute = (path: string) => openRoutes.some((re) => re.test(path));

/**
 * Resolves a bearer to a signed-in user. The session row is checked on every request, so logout,
 * a detected refresh-token reuse or disabling the user ends access at once, not at bearer expiry.
 */
export async function authenticate(env: Env, bearer: string): Promise<AuthUser | null> {
  const claims = await verifyBearer(env.JWT_SECRET, bearer);
  if (!claims) return null;
  const row = await getDb(env)
    .select({
      userId: users.userId,
      userName: users.userName,
      login: users.login,
      isAdmin: users.isAdmin,
      isRobot: users.isRobot,
      chrootGroups: users.chrootGroups,
      sessionId: sessions.sessionId,
    })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .where(
      and(
        eq(sessions.sessionId, claims.sessionId),
        eq(sessions.userId, claims.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, nowSeconds()),
        eq(users.enabled, true),
      ),
    )
    .get();
  return row ?? null;
}

export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  if (isOpenRoute(c.req.path)) return next();
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const auth = match ? await authenticate(c.env, match[1]) : null;
  if (!auth) throw new ApiError("unauthorized", "Требуется вход в систему");
  c.set("auth", auth);
  await next();
});

export function requireAdmin(auth: AuthUser) {
  if (!auth.isAdmin) throw new ApiError("forbidden", "Доступно только администраторам");
}
