import type { AppLoadContext } from "@remix-run/cloudflare";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "../../functions/lib/db";
import type { Env } from "../../functions/lib/env";
import { ApiError } from "../../functions/lib/errors";
import { cacheControl, LinkUnavailable, openLink, publicInfo, type UnavailableReason } from "../../functions/sl/public";
import { countView, unlockLink } from "../../functions/sl/recipient";
import type { PublicInfo } from "../../shared/sl/schemas";

/**
 * The public page's server side: the route's loader and action call the share-link service directly
 * (no HTTP hop to /api), with the Worker's bindings from the Remix load context.
 */

export type ShareView =
  | { state: "unavailable"; reason: UnavailableReason }
  | { state: "locked"; error?: "wrong" | "throttled" }
  | { state: "open"; info: PublicInfo };

export interface ShareAnswer {
  view: ShareView;
  status: number;
  headers: Record<string, string>;
  /** Set after a correct password: the page redirects to itself (POST/redirect/GET) with the cookie. */
  cookie?: string;
}

/**
 * The page's Referrer-Policy is no-referrer (worker.ts's security headers): its address is the link's key.
 * The password form alone says same-origin: no-referrer would make Chromium send `Origin: null` with the
 * POST, which Remix rejects as a possible CSRF; that view has no outgoing link or media to leak the id.
 */
const base = { "X-Robots-Tag": "noindex" };
const formPolicy = { "Referrer-Policy": "same-origin" };

function cf(context: AppLoadContext) {
  return context.cloudflare as { env: Env; ctx: ExecutionContext };
}

function unavailable(err: unknown): ShareAnswer {
  if (!(err instanceof LinkUnavailable)) throw err;
  // Gone is gone: a minute at the edge is harmless. "Not yet" and "unknown" may change: not stored.
  const cache = err.code === "gone" ? "public, max-age=60, s-maxage=60" : "no-store";
  return {
    view: { state: "unavailable", reason: err.reason },
    status: err.code === "gone" ? 410 : 404,
    headers: { ...base, "Cache-Control": cache },
  };
}

export async function loadSharePage(context: AppLoadContext, id: string, request: Request): Promise<ShareAnswer> {
  const { env, ctx } = cf(context);
  const db = getDb(env);
  const now = nowSeconds();
  try {
    const o = await openLink(db, env, id, request.headers.get("Cookie"), now);
    if (!o.unlocked)
      return { view: { state: "locked" }, status: 200, headers: { ...base, ...formPolicy, "Cache-Control": "private, no-store" } };
    ctx.waitUntil(countView(db, o.link.linkId, env));
    return {
      view: { state: "open", info: publicInfo(o) },
      status: 200,
      headers: { ...base, "Cache-Control": cacheControl(o, "page", now) },
    };
  } catch (err) {
    return unavailable(err);
  }
}

export async function unlockSharePage(context: AppLoadContext, id: string, request: Request): Promise<ShareAnswer> {
  const { env } = cf(context);
  const form = await request.formData();
  const password = String(form.get("password") ?? "").slice(0, 256);
  const noStore = { ...base, ...formPolicy, "Cache-Control": "private, no-store" };
  if (!password) return { view: { state: "locked", error: "wrong" }, status: 400, headers: noStore };
  const ip = request.headers.get("CF-Connecting-IP") ?? "local";
  try {
    const { cookie } = await unlockLink(getDb(env), env, id, password, ip, new URL(request.url).protocol === "https:", nowSeconds());
    return { view: { state: "locked" }, status: 303, headers: noStore, cookie: cookie ?? undefined };
  } catch (err) {
    if (err instanceof ApiError && err.code === "rate_limited")
      return { view: { state: "locked", error: "throttled" }, status: 429, headers: { ...noStore, ...err.headers } };
    if (err instanceof ApiError && err.code === "forbidden")
      return { view: { state: "locked", error: "wrong" }, status: 403, headers: noStore };
    return unavailable(err);
  }
}
