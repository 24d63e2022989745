import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { ApiError } from "../lib/errors";
import { entityAccess } from "../lib/access";
import { errorAnswers, createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { idParam, idsBody } from "../lib/params";
import { entityUserAccessOut as usersOf } from "../users/schemas";
import { entityUserAccess } from "../users/acl";
import { permissionValues } from "../lib/permissions";
import { clearSessionCookies, readRefreshCookie, setSessionCookies } from "./cookie";
import { aclPerms, entityAccessOut, loginBody, ok, tokens, userAbilities, whoami } from "./schemas";
import { hasAnyAcls, login, logout, refresh, type SignedIn } from "./service";

const app = createApp();
const tags = ["auth"];

const clientMeta = (c: Context<AppEnv>) => ({
  ip: c.req.header("CF-Connecting-IP") ?? "local",
  userAgent: c.req.header("User-Agent") ?? null,
});

const answerSignedIn = (c: Context<AppEnv>, s: SignedIn) => {
  setSessionCookies(c, s);
  return c.json({ bearer: s.bearer, expire: s.expire }, 200);
};

app.openapi(
  createRoute({
    method: "post",
    path: "/login",
    security: [],
    tags,
    summary: "Sign in with login and password; sets the refresh and page-session cookies",
    request: { body: jsonBody(loginBody) },
    responses: {
      200: jsonContent(tokens),
      ...errorResponses,
      403: jsonContent(tokens, "The account is disabled"),
      429: jsonContent(tokens, "Too many failures; see Retry-After"),
    },
  }),
  async (c) => answerSignedIn(c, await login(getDb(c.env), c.env, c.req.valid("json"), clientMeta(c))),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/refresh",
    security: [],
    tags,
    summary: "Rotate the refresh cookie and issue a new bearer (and page-session cookie)",
    responses: { 200: jsonContent(tokens), 401: errorResponses[401] },
  }),
  async (c) => {
    const cookie = readRefreshCookie(c);
    if (!cookie) throw new ApiError("unauthorized", "Сеанс истёк, войдите снова");
    try {
      return answerSignedIn(c, await refresh(getDb(c.env), c.env, cookie.sessionId, cookie.secret));
    } catch (err) {
      clearSessionCookies(c);
      throw err;
    }
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/logout",
    security: [],
    tags,
    summary: "End the session of the refresh cookie and clear both cookies",
    responses: { 200: jsonContent(ok) },
  }),
  async (c) => {
    const cookie = readRefreshCookie(c);
    if (cookie) await logout(getDb(c.env), cookie.sessionId, cookie.secret);
    clearSessionCookies(c);
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/whoami",
    tags,
    summary: "The signed-in user",
    responses: { 200: jsonContent(whoami), 401: errorResponses[401] },
  }),
  async (c) => {
    const auth = c.get("auth");
    return c.json(
      { id: auth.userId, name: auth.userName, login: auth.login, is_admin: auth.isAdmin, any_acls: await hasAnyAcls(getDb(c.env), auth) },
      200,
    );
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/user-abilities",
    tags,
    summary: "What the signed-in user may do across the application",
    responses: { 200: jsonContent(userAbilities), 401: errorResponses[401] },
  }),
  async (c) => {
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
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/list-acl-perms",
    tags,
    summary: "The permission values an access rule may list",
    responses: { 200: jsonContent(aclPerms), 401: errorResponses[401] },
  }),
  (c) => c.json([...permissionValues], 200),
);

// Single sign-on (sso, sso-cb, sso-providers, exchange-token) lives in functions/sso/routes.ts.

const objectErrors = errorAnswers({
  403: "Readable, but the acl permission is missing",
  404: "No such object, or the caller may not read it",
});

app.openapi(
  createRoute({
    method: "get",
    path: "/entity-access/{id}",
    tags,
    summary: "The caller's permissions on a group or asset",
    request: { params: idParam },
    responses: { 200: jsonContent(entityAccessOut), ...objectErrors },
  }),
  async (c) => {
    const { obj, perms } = await entityAccess(getDb(c.env), c.get("auth"), c.req.valid("param").id);
    return c.json({ id: obj.id, type: obj.type, acl: perms }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/entity-user-access/{id}",
    tags,
    summary: "Who has what on an object: the rules on it and above it (needs acl, or admin)",
    request: { params: idParam },
    responses: { 200: jsonContent(usersOf.element), ...objectErrors },
  }),
  async (c) => c.json((await entityUserAccess(getDb(c.env), c.get("auth"), [c.req.valid("param").id]))[0], 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/entity-user-access",
    tags,
    summary: "Who has what on several objects (needs acl on each, or admin)",
    request: { body: jsonBody(idsBody) },
    responses: { 200: jsonContent(usersOf), ...objectErrors },
  }),
  async (c) => c.json(await entityUserAccess(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200),
);

export default app;
