import type { Context } from "hono";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { ApiError } from "../lib/errors";
import { entityAccess } from "../lib/access";
import { createApp } from "../lib/openapi";
import { entityUserAccess } from "../users/acl";
import { permissionValues } from "../../shared/lib/permissions";
import { clearSessionCookies, readRefreshCookie, setSessionCookies } from "./cookie";
import * as r from "../../shared/auth/contract";
import { hasAnyAcls, login, logout, refresh, type SignedIn } from "./service";

/** /api/auth: the handlers of ./contract.ts's routes. */
const app = createApp();

const clientMeta = (c: Context<AppEnv>) => ({
  ip: c.req.header("CF-Connecting-IP") ?? "local",
  userAgent: c.req.header("User-Agent") ?? null,
});

const answerSignedIn = (c: Context<AppEnv>, s: SignedIn) => {
  setSessionCookies(c, s);
  return c.json({ bearer: s.bearer, expire: s.expire }, 200);
};

app.openapi(r.login, async (c) => answerSignedIn(c, await login(getDb(c.env), c.env, c.req.valid("json"), clientMeta(c))));

app.openapi(r.refresh, async (c) => {
  const cookie = readRefreshCookie(c);
  if (!cookie) throw new ApiError("unauthorized", "Сеанс истёк, войдите снова");
  try {
    return answerSignedIn(c, await refresh(getDb(c.env), c.env, cookie.sessionId, cookie.secret));
  } catch (err) {
    clearSessionCookies(c);
    throw err;
  }
});

app.openapi(r.logout, async (c) => {
  const cookie = readRefreshCookie(c);
  if (cookie) await logout(getDb(c.env), cookie.sessionId, cookie.secret);
  clearSessionCookies(c);
  return c.json({ ok: true as const }, 200);
});

app.openapi(r.getWhoami, async (c) => {
  const auth = c.get("auth");
  return c.json(
    { id: auth.userId, name: auth.userName, login: auth.login, is_admin: auth.isAdmin, any_acls: await hasAnyAcls(getDb(c.env), auth) },
    200,
  );
});

app.openapi(r.getUserAbilities, async (c) => {
  const auth = c.get("auth");
  return c.json(
    {
      is_admin: auth.isAdmin,
      is_robot: auth.isRobot,
      any_acls: await hasAnyAcls(getDb(c.env), auth),
      chroot_groups: auth.chrootGroups,
      admin_area: auth.isAdmin,
    },
    200,
  );
});

app.openapi(r.listAclPerms, (c) => c.json([...permissionValues], 200));

// Single sign-on (sso, sso-cb, sso-providers, exchange-token) lives in functions/sso/routes.ts.

app.openapi(r.entityAccess, async (c) => {
  const { obj, perms } = await entityAccess(getDb(c.env), c.get("auth"), c.req.valid("param").id);
  return c.json({ id: obj.id, type: obj.type, acl: perms }, 200);
});

app.openapi(r.entityUserAccess, async (c) =>
  c.json((await entityUserAccess(getDb(c.env), c.get("auth"), [c.req.valid("param").id]))[0], 200),
);

app.openapi(r.entityUserAccessList, async (c) => c.json(await entityUserAccess(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200));

export default app;
