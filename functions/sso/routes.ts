import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { setSessionCookies } from "../auth/cookie";
import { configOf } from "../lib/config";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { randomSecret } from "../lib/ids";
import { createApp } from "../lib/openapi";
import { exchangeCode } from "./codes";
import * as r from "../../shared/sso/contract";
import { ssoProviders } from "./config";
import { safeReturnPath } from "../../shared/lib/return-path";
import { finishSignIn, flowTtlSeconds, startSignIn } from "./flow";
import { SsoFailure } from "./oidc";

/** /api/auth single sign-on (docs/decisions/012-single-sign-on.md): provider list, the redirect out, the callback, the code exchange. */
const app = createApp();

/** Ties a started sign-in to this browser: the callback must present the same secret (login CSRF). */
const browserCookie = "mam_sso";
const cookieOpts = (c: Context<AppEnv>) => ({
  httpOnly: true,
  // Lax: the provider brings the browser back with a top-level GET from its own site.
  sameSite: "Lax" as const,
  path: "/api/auth",
  maxAge: flowTtlSeconds,
  secure: new URL(c.req.url).protocol === "https:",
});

const origin = (c: Context<AppEnv>) => configOf(c.env).PUBLIC_URL ?? new URL(c.req.url).origin;

/** Every failure lands on /login with a reason the page turns into a Russian toast; never a stack trace. */
function failed(c: Context<AppEnv>, err: unknown, to?: string) {
  const reason = err instanceof SsoFailure ? err.reason : "provider_error";
  if (!(err instanceof SsoFailure)) console.error("sso:", err);
  const params = new URLSearchParams({ sso_error: reason });
  const back = (err as { to?: string } | null)?.to ?? to;
  if (back) params.set("to", back);
  return c.redirect(`/login?${params}`, 302);
}

app.openapi(r.ssoProviders, (c) =>
  c.json(
    ssoProviders(c.env).map((p) => ({ name: p.name, title: p.title })),
    200,
  ),
);

app.openapi(r.startSso, async (c) => {
  const to = safeReturnPath(c.req.valid("query").to, origin(c));
  const browserSecret = getCookie(c, browserCookie) || randomSecret();
  try {
    const url = await startSignIn(getDb(c.env), c.env, { provider: c.req.valid("param").provider, to, origin: origin(c), browserSecret });
    setCookie(c, browserCookie, browserSecret, cookieOpts(c));
    return c.redirect(url, 302);
  } catch (err) {
    return failed(c, err, to);
  }
});

app.openapi(r.ssoCallback, async (c) => {
  const q = c.req.valid("query");
  try {
    const done = await finishSignIn(getDb(c.env), c.env, {
      provider: c.req.valid("param").provider,
      origin: origin(c),
      state: q.state,
      code: q.code,
      error: q.error,
      browserSecret: getCookie(c, browserCookie),
    });
    return c.redirect(`/login?${new URLSearchParams({ token: done.code, to: done.to })}`, 302);
  } catch (err) {
    return failed(c, err);
  }
});

app.openapi(r.exchangeToken, async (c) => {
  const meta = { ip: c.req.header("CF-Connecting-IP") ?? "local", userAgent: c.req.header("User-Agent") ?? null };
  const s = await exchangeCode(getDb(c.env), c.env, c.req.valid("json").token, meta);
  setSessionCookies(c, s);
  return c.json({ bearer: s.bearer, expire: s.expire }, 200);
});

export default app;
