import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../lib/env";

const name = "mam_refresh";
/** Idle lifetime of a sign-in: every refresh moves it forward. */
export const refreshTtlSeconds = 30 * 24 * 3600;
const path = "/api/auth";

export function setRefreshCookie(c: Context<AppEnv>, sessionId: string, secret: string) {
  setCookie(c, name, `${sessionId}.${secret}`, {
    httpOnly: true,
    sameSite: "Strict",
    path,
    maxAge: refreshTtlSeconds,
    secure: new URL(c.req.url).protocol === "https:",
  });
}

export function readRefreshCookie(c: Context<AppEnv>): { sessionId: string; secret: string } | null {
  const value = getCookie(c, name);
  const dot = value?.indexOf(".") ?? -1;
  if (!value || dot < 1) return null;
  return { sessionId: value.slice(0, dot), secret: value.slice(dot + 1) };
}

export function clearRefreshCookie(c: Context<AppEnv>) {
  deleteCookie(c, name, { path, secure: new URL(c.req.url).protocol === "https:" });
}
