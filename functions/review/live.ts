import { eq } from "drizzle-orm";
import { reviewComments, type ShareLink, variants } from "../../db/schema";
import { requireGuestAccess } from "../lib/access";
import { liveSession } from "../lib/auth";
import type { Db } from "../lib/db";
import { fromBase64Url, toBase64Url } from "../../shared/lib/encoding";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { signUrl, verifyUrl } from "../lib/sign";
import { approvalOf, latestOf, overallOf, roundOf } from "./approval";
import { listedComment } from "./comments";
import { assetPerms } from "./common";
import { type Guest, openGuest, unlockedGuest } from "./guest";
import { type RoomPush, socketLifeMs, watcherHeaders } from "./live-watcher";

/**
 * The live review room from the Worker's side (docs/decisions/061-review-and-approval.md, "Live room"): tickets,
 * the socket's hand-over to the asset's room, and the pushes after each change the REST API makes.
 */

/** A ticket is used once, right away, by the page that asked for it: a minute covers a slow connect. */
export const liveTicketTtlSeconds = 60;

const purpose = "review-live";
/** The ticket binds the asset to the caller's sign-in session; the session is checked again at connect time. */
const subject = (assetId: string, sessionId: string) => `${assetId}:${sessionId}`;

/** `{session}.{expires}.{signature}`: the signature is hex and the expiry digits, so the session id is what precedes them. */
export async function liveTicket(db: Db, env: Env, auth: AuthUser, assetId: string) {
  await assetPerms(db, auth, assetId);
  const expires = Math.floor(Date.now() / 1000) + liveTicketTtlSeconds;
  const signed = new URLSearchParams(await signUrl(env.JWT_SECRET, purpose, subject(assetId, auth.sessionId), expires));
  return { ticket: `${auth.sessionId}.${expires}.${signed.get("sig")}`, expires };
}

const refused = () => new ApiError("unauthorized", "Билет для комнаты просмотра недействителен или устарел");

/** Who joins the room: a signed-in reader (hears everything) or a review link's guest (one version, no internal comments). */
export interface Joiner {
  id: string;
  name: string | null;
  guestVersion: number | null;
}

const guestPurpose = "review-live-guest";
/**
 * A guest's ticket binds the asset, the link, its version and reviewer, its password hash's tail (a new password
 * ends it, as it ends the unlock cookie) and the name the guest gave, if any (what the room shows of them).
 */
const guestSubject = (assetId: string, link: ShareLink, name: string) =>
  `${assetId}:${link.linkId}:${link.reviewVersion}:${link.reviewerId}:${link.passwordHash?.slice(-24) ?? ""}:${name}`;
const guestTicketPattern = /^guest\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]*)\.(\d{1,12})\.([0-9a-f]{64})$/;

/**
 * A review link's guest's ticket (docs/decisions/061, "Guests in the live room"): past the password, within the
 * link's rights (openGuest checked expiry, revocation and its creator's rights); no name is needed to watch.
 * `guest.{link}.{name}.{expires}.{signature}`, the name base64url-encoded (empty without one).
 */
export async function guestLiveTicket(env: Env, g: Guest) {
  unlockedGuest(g);
  requireGuestAccess(g, g.assetId, g.version);
  const name = g.session?.name ?? "";
  const expires = Math.floor(Date.now() / 1000) + liveTicketTtlSeconds;
  const signed = new URLSearchParams(await signUrl(env.JWT_SECRET, guestPurpose, guestSubject(g.assetId, g.link, name), expires));
  const name64 = toBase64Url(new TextEncoder().encode(name));
  return { ticket: `guest.${g.link.linkId}.${name64}.${expires}.${signed.get("sig")}`, expires, asset_id: g.assetId, version: g.version };
}

/** The guest a ticket names, if the link is still usable now (not revoked, expired, or its creator's right gone) and the ticket is this asset's. */
async function guestHolder(db: Db, env: Env, assetId: string, m: RegExpExecArray): Promise<Joiner> {
  const [, linkId, name64, expires, sig] = m;
  let name: string;
  try {
    name = new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(name64));
  } catch {
    throw refused();
  }
  let g: Guest;
  try {
    g = await openGuest(db, env, linkId, null, Math.floor(Date.now() / 1000));
    requireGuestAccess(g, assetId, g.version);
  } catch (e) {
    // Unknown, revoked, expired, its creator's right gone, another asset's: all the same 401 (a database failure stays one).
    if (e instanceof ApiError) throw refused();
    throw e;
  }
  if (!(await verifyUrl(env.JWT_SECRET, guestPurpose, guestSubject(assetId, g.link, name), expires, sig))) throw refused();
  return { id: g.reviewerId, name: name || null, guestVersion: g.version };
}

/**
 * The caller a ticket names, if it is this asset's, unexpired, correctly signed, its session still live and the
 * asset still readable to it; a 401 otherwise (for every reason alike: the answer tells an attacker nothing).
 */
export async function ticketHolder(db: Db, env: Env, assetId: string, ticket: string | undefined): Promise<Joiner> {
  const g = ticket ? guestTicketPattern.exec(ticket) : null;
  if (g) return guestHolder(db, env, assetId, g);
  const m = ticket ? /^(.+)\.(\d{1,12})\.([0-9a-f]{64})$/.exec(ticket) : null;
  if (!m) throw refused();
  const [, sessionId, expires, sig] = m;
  if (!(await verifyUrl(env.JWT_SECRET, purpose, subject(assetId, sessionId), expires, sig))) throw refused();
  const auth = await liveSession(env, sessionId);
  if (!auth) throw refused();
  try {
    await assetPerms(db, auth, assetId);
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") throw refused();
    throw e;
  }
  return { id: auth.userId, name: auth.userName, guestVersion: null };
}

const roomOf = (env: Env, assetId: string) => env.REVIEW_ROOM?.get(env.REVIEW_ROOM.idFromName(assetId));

/**
 * Hands a WebSocket upgrade over to the asset's room, naming the ticket's holder, what it may hear, and until when
 * (the room closes it then, and the page comes back with a fresh ticket: rights are re-checked every few minutes).
 */
export async function joinRoom(env: Env, assetId: string, who: Joiner): Promise<Response> {
  const room = roomOf(env, assetId);
  if (!room) throw new ApiError("unavailable", "Комната просмотра не настроена (REVIEW_ROOM)");
  const headers = new Headers({
    Upgrade: "websocket",
    [watcherHeaders.user]: who.id,
    [watcherHeaders.until]: String(Date.now() + socketLifeMs),
  });
  // Header values are ByteStrings: the name goes percent-encoded and the room decodes it.
  if (who.name) headers.set(watcherHeaders.name, encodeURIComponent(who.name));
  if (who.guestVersion !== null) headers.set(watcherHeaders.guestVersion, String(who.guestVersion));
  return room.fetch("https://room/connect", { headers });
}

export type LiveMessage =
  | { type: "comment.created" | "comment.updated" | "comment.deleted"; asset_id: string; version: number; comment: unknown }
  | { type: "approval.changed"; asset_id: string; version: number; approval: unknown }
  | { type: "media.ready"; asset_id: string; version: number };

/**
 * Sends one change to its asset's room, read once the answer is on its way (ctx.waitUntil); a failure is logged,
 * never the change's (a page reconciles from the REST lists when it reconnects).
 */
export async function pushLive(env: Env, push: () => Promise<RoomPush | null>) {
  if (!env.REVIEW_ROOM) return;
  try {
    const p = await push();
    const room = p && roomOf(env, p.team.asset_id);
    if (!room) return;
    const r = await room.fetch("https://room/push", { method: "POST", body: JSON.stringify(p) });
    if (!r.ok) console.error(`review live push: room answered ${r.status}`);
  } catch (error) {
    console.error("review live push:", error);
  }
}

/**
 * A version got a new rendition (a proxy, a preview): the variant the task read names the asset and version. Told to
 * guests too: it says no more than their page shows once it loads again, which a guest's page without a player does.
 */
export const renditionMessage = (db: Db, sourceVariantId: string) => async (): Promise<RoomPush | null> => {
  const src = await db
    .select({ assetId: variants.assetId, version: variants.version })
    .from(variants)
    .where(eq(variants.variantId, sourceVariantId))
    .get();
  if (!src) return null;
  const message = { type: "media.ready", asset_id: src.assetId, version: src.version };
  return { version: src.version, team: message, guest: message };
};

type Listed = NonNullable<Awaited<ReturnType<typeof listedComment>>>;
type Author = { author: { user_id: string | null; guest: boolean }; internal: boolean };

/**
 * A comment as the guest's list shows it (functions/review/guest.ts, guestComments), or null when guests never see
 * it: an internal comment, a reply of an internal thread. Internal replies are left out; only guests' ids are kept
 * (the room keeps a guest's own and drops the others', see forGuest in live-watcher.ts).
 */
async function guestVariant(db: Db, c: Listed): Promise<Listed | null> {
  if (c.internal) return null;
  if (c.parent_id) {
    const parent = await db
      .select({ internal: reviewComments.internal })
      .from(reviewComments)
      .where(eq(reviewComments.commentId, c.parent_id))
      .get();
    if (!parent || parent.internal) return null;
  }
  const strip = <T extends Author>(x: T): T => (x.author.guest ? x : { ...x, author: { ...x.author, user_id: null } });
  return "replies" in c ? { ...strip(c), replies: c.replies.filter((r) => !r.internal).map(strip) } : strip(c);
}

async function commentPush(db: Db, type: LiveMessage["type"], comment: Listed): Promise<RoomPush> {
  const base = { type, asset_id: comment.asset_id, version: comment.version };
  const guest = await guestVariant(db, comment);
  return { version: comment.version, team: { ...base, comment }, guest: guest && { ...base, comment: guest } };
}

/** A comment as the list shows it now (created or updated), as a room message. */
export const commentMessage =
  (db: Db, type: "comment.created" | "comment.updated", commentId: string) => async (): Promise<RoomPush | null> => {
    const comment = await listedComment(db, commentId);
    return comment && commentPush(db, type, comment);
  };

/** A comment as the list showed it just before its deletion (read before it, sent after). */
export async function deletedMessage(db: Db, commentId: string): Promise<RoomPush | null> {
  const comment = await listedComment(db, commentId);
  return comment && commentPush(db, "comment.deleted", comment);
}

/**
 * The version's approval as GET /api/review/approval shows it to a reader, as a room message; the guests' variant is their API's (the overall status and their own decision), the room picking each
 * guest's own from `decisions`.
 */
export const approvalMessage = (db: Db, assetId: string, version: number) => async (): Promise<RoomPush> => {
  const base = { type: "approval.changed", asset_id: assetId, version };
  const round = await roundOf(db, assetId, version);
  const decisions = Object.fromEntries([...latestOf(round.decisions)].map(([id, d]) => [id, { status: d.status, note: d.note ?? "" }]));
  return {
    version,
    // Everyone in the room reads the asset, not all may update it: the reviewers' e-mail addresses are left out.
    team: { ...base, approval: await approvalOf(db, assetId, version, false) },
    guest: { ...base, approval: { overall: overallOf(round) }, decisions },
  };
};
