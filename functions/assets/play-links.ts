import { eq } from "drizzle-orm";
import { variants } from "../../db/schema";
import { liveSession } from "../lib/auth";
import { configOf } from "../lib/config";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { signUrl, verifyUrl } from "../lib/sign";
import { requireAssets } from "./guard";
import { rightFor } from "./versions";

/**
 * Play links (/api/media/{variant}?s&exp&sig): what a <video>, <img> or <iframe> loads without headers.
 * The signature binds the variant to the caller's session, and every request re-checks that the
 * session (or robot token) is still live and still has the right the variant needs, so a link stops
 * at logout, at a revoked token and when the right goes. It lives minutes; the viewer asks for a new
 * one when playback fails on an expired link (docs/decisions/021-user-bytes.md).
 */
export const playTtlSeconds = 10 * 60;

const subject = (variantId: string, sessionId: string) => `${variantId}:${sessionId}`;

/**
 * The separate origin play links are built on (MEDIA_ORIGIN, a cookieless host routed to this Worker),
 * or null: unset, unparsable, or the app's own origin (which would otherwise be shut by the gate below).
 */
export function mediaOrigin(env: Pick<Env, "MEDIA_ORIGIN" | "PUBLIC_URL">): string | null {
  const { MEDIA_ORIGIN: media, PUBLIC_URL: app } = configOf(env);
  return media && !(app && URL.canParse(app) && new URL(app).origin === media) ? media : null;
}

export async function playLink(env: Env, requestUrl: string, auth: AuthUser, variantId: string) {
  const expire = Math.floor(Date.now() / 1000) + playTtlSeconds;
  const base = mediaOrigin(env) ?? new URL(requestUrl).origin;
  const signature = await signUrl(env.JWT_SECRET, "play", subject(variantId, auth.sessionId), expire);
  return { link: `${base}/api/media/${variantId}?s=${encodeURIComponent(auth.sessionId)}&${signature}`, expire, range: true };
}

/**
 * The transcoder's URL for a source (functions/tasks/dispatch.ts). It is no user and has no session:
 * its own signature purpose, valid as long as the job's URLs, handed only to the transcoder.
 */
export async function taskSourceUrl(env: Env, origin: string, variantId: string, expires: number) {
  return `${origin}/api/media/${variantId}?${await signUrl(env.JWT_SECRET, "task-source", variantId, expires)}`;
}

const badLink = () => new ApiError("forbidden", "Ссылка недействительна или устарела");

/**
 * The variant behind a /api/media URL: a play link after its signature, its session and the caller's
 * right are checked, or a transcoder's source URL after its signature.
 */
export async function openPlayLink(db: Db, env: Env, variantId: string, q: { s?: string; exp?: string; sig?: string }) {
  const signed = q.s
    ? verifyUrl(env.JWT_SECRET, "play", subject(variantId, q.s), q.exp, q.sig)
    : verifyUrl(env.JWT_SECRET, "task-source", variantId, q.exp, q.sig);
  if (!(await signed)) throw badLink();
  const auth = q.s ? await liveSession(env, q.s) : null;
  if (q.s && !auth) throw new ApiError("forbidden", "Сеанс завершён: ссылка больше не действует");
  const v = await db.select().from(variants).where(eq(variants.variantId, variantId)).get();
  if (!v) throw new ApiError("not_found", "Вариант не найден");
  if (auth) await requireAssets(db, auth, rightFor(v), [v.assetId]);
  return v;
}

/**
 * On MEDIA_ORIGIN only play links are served: that host exists to hold user bytes away from the
 * app's origin and its cookies, so it must not serve the app or its API as well.
 */
export function refusedOnMediaOrigin(request: Request, env: Pick<Env, "MEDIA_ORIGIN" | "PUBLIC_URL">): Response | null {
  const media = mediaOrigin(env);
  const url = new URL(request.url);
  if (!media || url.origin !== media || url.pathname.startsWith("/api/media/")) return null;
  return new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
  });
}
