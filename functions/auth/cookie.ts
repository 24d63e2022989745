import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../lib/env";
import { PAGE_COOKIE } from "./page-session";
import { refreshTtlSeconds, type SignedIn } from "./service";

const name = "mam_refresh";
const path = "/api/auth";

const isHttps = (c: Context<AppEnv>) => new URL(c.req.url).protocol === "https:";

export function setRefreshCookie(c: Context<AppEnv>, sessionId: string, secret: string) {
  setCookie(c, name, `${sessionId}.${secret}`, {
    httpOnly: true,
    sameSite: "Strict",
    path,
    maxAge: refreshTtlSeconds,
    secure: isHttps(c),
  });
}

export function readRefreshCookie(c: Context<AppEnv>): { sessionId: string; secret: string } | null {
  const value = getCookie(c, name);
  const dot = value?.indexOf(".") ?? -1;
  if (!value || dot < 1) return null;
  return { sessionId: value.slice(0, dot), secret: value.slice(dot + 1) };
}

/**
 * The page-session cookie: the bearer again, for the server's page loaders only (functions/auth/page-session.ts).
 * httpOnly, so no page script reads it; SameSite=Lax, so a link from elsewhere still opens a rendered page;
 * it lives as long as the bearer. The API never reads it (functions/lib/auth.ts takes the header alone).
 */
function setPageCookie(c: Context<AppEnv>, bearer: string, expire: number) {
  setCookie(c, PAGE_COOKIE, bearer, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    maxAge: Math.max(0, expire - Math.floor(Date.now() / 1000)),
    secure: isHttps(c),
  });
}

/** A sign-in, single sign-on or refresh: both cookies follow the session. */
export function setSessionCookies(c: Context<AppEnv>, s: SignedIn) {
  setRefreshCookie(c, s.sessionId, s.refreshSecret);
  setPageCookie(c, s.bearer, s.expire);
}

/** Logout or a refused refresh: neither cookie outlives the session. */
export function clearSessionCookies(c: Context<AppEnv>) {
  deleteCookie(c, name, { path, secure: isHttps(c) });
  deleteCookie(c, PAGE_COOKIE, { path: "/", secure: isHttps(c) });
}
