import { env } from "cloudflare:test";
import { ssoLinks } from "../../../db/schema";
import { getDb } from "../../../functions/lib/db";
import { createUser } from "../helpers";
import { uniq } from "../fixtures";
import { adminOnly, open, type RouteCase } from "./types";

/**
 * Single sign-on. The suite's Worker has no SSO_PROVIDERS, so the redirects send everyone to
 * /login?sso_error=… (the matrix's fetch follows it to the sign-in page: 200; the 302 itself is checked in
 * sso-refusals.test.ts); the code exchange refuses an unknown code (401) for everyone. Links: admins only.
 */

const linkedUser = async () => {
  const login = uniq("sso").toLowerCase();
  const userId = await createUser({ login, password: `pw-${login}` });
  await getDb(env).insert(ssoLinks).values({ provider: "corp", subject: login, userId, email: null, ctime: 1, lastLogin: 1 });
  return userId;
};

export const ssoCases: RouteCase[] = [
  { route: "GET /api/auth/sso-providers", request: () => ({ path: "/api/auth/sso-providers" }), expect: open(200) },
  { route: "GET /api/auth/sso/:provider", request: () => ({ path: "/api/auth/sso/corp?to=%2Fmam" }), expect: open(200) },
  { route: "GET /api/auth/sso-cb/:provider", request: () => ({ path: "/api/auth/sso-cb/corp?code=x&state=y" }), expect: open(200) },
  {
    route: "POST /api/auth/exchange-token",
    request: () => ({ method: "POST", path: "/api/auth/exchange-token", json: { token: "not-a-code" } }),
    expect: open(401),
  },
  {
    route: "GET /api/user/:id/sso-links",
    request: async () => ({ path: `/api/user/${await linkedUser()}/sso-links` }),
    expect: adminOnly(),
  },
  {
    route: "DELETE /api/user/:id/sso-links/:provider",
    request: async () => ({ method: "DELETE", path: `/api/user/${await linkedUser()}/sso-links/corp` }),
    expect: adminOnly(),
  },
];
