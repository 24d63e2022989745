import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { events, shareLinks } from "../../db/schema";
import { previewResponse, startsAtZero, streamVariant } from "../assets/http-content";
import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { nowSeconds } from "../../db/schema/columns";
import { newId } from "../lib/ids";
import { dispatchPendingEvents } from "../lib/event-dispatch";
import { verifyPassword } from "../lib/password";
import { cacheControl, LinkUnavailable, openLink, playVariant, type OpenLink } from "./public";
import { admitUnlockAttempt, unlockSuccessWrites } from "./throttle";
import { unlockCookie, unlockValue } from "./tokens";

/** What a recipient does with a link: unlock it, view it, download from it. */

export const wrongPassword = () => new ApiError("forbidden", "Неверный пароль", [{ field: "password", message: "неверный пароль" }]);

/**
 * Checks a password: the attempt is counted per link and per address before hashing (functions/sl/throttle.ts),
 * and given back when it is right. Answers the Set-Cookie value of the unlock cookie.
 */
export async function unlockLink(db: Db, env: Env, id: string, password: string, ip: string, secure: boolean, now: number) {
  const o = await openLink(db, env, id, null, now);
  if (!o.link.passwordHash) return { open: o, cookie: null };
  await admitUnlockAttempt(db, o.link.linkId, ip, now);
  if (!(await verifyPassword(password, o.link.passwordHash))) throw wrongPassword();
  await db.batch(unlockSuccessWrites(db, o.link.linkId, ip));
  const cookie = unlockCookie(o.link.linkId, await unlockValue(env.JWT_SECRET, o.link.linkId, o.link.passwordHash, now), secure);
  return { open: { ...o, unlocked: true }, cookie };
}

/**
 * One more view, run after the response by waitUntil (never in the page's time), on every open that reaches the
 * Worker: a page rendered, a page served from the edge cache, the info answer. A view changes nothing, so it is an
 * event ("share-link.open") only while an enabled automation listens for opened links, which it then starts (the
 * dispatcher, functions/udwf/dispatch.ts, reached through functions/lib/event-dispatch.ts; the /sl page is outside
 * the API's after-request dispatch). The check and the insert are one statement.
 */
export const countView = async (db: Db, linkId: string, env?: Env) => {
  try {
    const [, opened] = await db.batch([
      db
        .update(shareLinks)
        .set({ viewCount: sql`${shareLinks.viewCount} + 1` })
        .where(eq(shareLinks.linkId, linkId)),
      db
        .insert(events)
        .select(
          db
            .select({
              eventId: sql<string>`${newId()}`.as("event_id"),
              ctime: sql<number>`${nowSeconds()}`.as("ctime"),
              userId: sql<null>`NULL`.as("user_id"),
              kind: sql<string>`'share-link.open'`.as("kind"),
              entityType: sql<string>`'share_link'`.as("entity_type"),
              entityId: shareLinks.linkId,
              data: sql<string>`json_object('asset', ${shareLinks.assetId})`.as("data"),
              // Filled by the trigger events_names (an insert from a select names every column).
              names: sql<null>`NULL`.as("names"),
            })
            .from(shareLinks)
            .where(
              and(
                eq(shareLinks.linkId, linkId),
                sql`EXISTS (SELECT 1 FROM udwf_workflows WHERE enabled = 1 AND json_extract("trigger", '$.type') = 'share-link.opened')`,
              ),
            ),
        )
        .returning({ id: events.eventId }),
    ]);
    if (opened.length && env) await dispatchPendingEvents(env);
  } catch (err) {
    console.error("view count", err);
  }
};

/**
 * Counts a download atomically against the limit: the UPDATE only matches while below it, and the event
 * row is written in the same transaction only when the UPDATE matched (changes()), so two racing last
 * downloads cannot both pass.
 */
export async function recordDownload(db: Db, o: OpenLink, which: "original" | "proxy", now: number) {
  const [updated] = await db.batch([
    db
      .update(shareLinks)
      .set({ downloadCount: sql`${shareLinks.downloadCount} + 1` })
      .where(
        and(
          eq(shareLinks.linkId, o.link.linkId),
          isNull(shareLinks.revokedAt),
          or(isNull(shareLinks.downloadLimit), lt(shareLinks.downloadCount, shareLinks.downloadLimit)),
        ),
      )
      .returning({ count: shareLinks.downloadCount }),
    db.insert(events).select(
      db
        .select({
          eventId: sql<string>`${newId()}`.as("event_id"),
          ctime: sql<number>`${now}`.as("ctime"),
          userId: sql<null>`NULL`.as("user_id"),
          kind: sql<string>`'share-link.download'`.as("kind"),
          entityType: sql<string>`'share_link'`.as("entity_type"),
          entityId: shareLinks.linkId,
          data: sql<string>`${JSON.stringify({ asset: o.link.assetId, variant: which })}`.as("data"),
          names: sql<null>`NULL`.as("names"),
        })
        .from(shareLinks)
        .where(and(eq(shareLinks.linkId, o.link.linkId), sql`changes() > 0`)),
    ),
  ]);
  if (updated.length === 0) throw new LinkUnavailable("exhausted");
}

const withCache = (res: Response, value: string) => {
  const headers = new Headers(res.headers);
  headers.set("Cache-Control", value);
  headers.set("Referrer-Policy", "same-origin");
  if (value.startsWith("private")) headers.set("Vary", "Cookie");
  return new Response(res.body, { status: res.status, headers });
};

const locked = () => new ApiError("forbidden", "Ссылка защищена паролем");
const notAllowed = () => new ApiError("forbidden", "Ссылка этого не разрешает");

/**
 * Streams what the link allows: the original or the proxy as an attachment, the player's bytes inline.
 * A download is counted for every answer that hands the file out from its first byte — a 200 (a plain
 * GET, a multi-range answered whole, an If-Range that no longer matches) or a 206 from byte 0; a range
 * further in continues a download already counted. Counting comes after the answer is prepared and
 * before a byte is sent: over the limit, the storage stream is dropped and the answer is 410.
 */
export async function serveLinked(
  db: Db,
  env: Env,
  req: Request,
  id: string,
  what: "original" | "proxy" | "play",
  requestId: string,
  now: number,
) {
  const o = await openLink(db, env, id, req.headers.get("Cookie"), now);
  if (!o.unlocked) throw locked();
  if (what === "play") {
    const v = o.allowed.has("view") ? playVariant(o) : null;
    if (!v) throw notAllowed();
    return withCache(await streamVariant(db, env, req, v, "inline", requestId), cacheControl(o, "media", now));
  }
  const v = what === "original" ? o.original : o.proxy;
  if (!o.allowed.has(what === "original" ? "download_original" : "download_proxy") || !v) throw notAllowed();
  const res = await streamVariant(db, env, req, v, "attachment", requestId);
  if (startsAtZero(req, res)) {
    try {
      await recordDownload(db, o, what, now);
    } catch (err) {
      await res.body?.cancel().catch(() => {});
      throw err;
    }
  }
  return withCache(res, cacheControl(o, "download", now));
}

export async function servePreview(db: Db, env: Env, req: Request, id: string, now: number) {
  const o = await openLink(db, env, id, req.headers.get("Cookie"), now);
  if (!o.unlocked) throw locked();
  if (!o.allowed.has("view") || !o.preview) throw new ApiError("not_found", "Превью нет");
  return withCache(await previewResponse(db, env, req, o.preview, "Превью нет"), cacheControl(o, "media", now));
}
