import { liveSession } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { signUrl, verifyUrl } from "../uploads/sign";
import { approvalOf } from "./approval";
import { listedComment } from "./comments";
import { assetPerms } from "./common";
import { watcherHeaders } from "./live-watcher";

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

/**
 * The caller a ticket names, if it is this asset's, unexpired, correctly signed, its session still live and the
 * asset still readable to it; a 401 otherwise (for every reason alike: the answer tells an attacker nothing).
 */
export async function ticketHolder(db: Db, env: Env, assetId: string, ticket: string | undefined): Promise<AuthUser> {
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
  return auth;
}

const roomOf = (env: Env, assetId: string) => env.REVIEW_ROOM?.get(env.REVIEW_ROOM.idFromName(assetId));

/** Hands a WebSocket upgrade over to the asset's room, naming the ticket's holder. */
export async function joinRoom(env: Env, assetId: string, auth: AuthUser): Promise<Response> {
  const room = roomOf(env, assetId);
  if (!room) throw new ApiError("unavailable", "Комната просмотра не настроена (REVIEW_ROOM)");
  const headers = new Headers({ Upgrade: "websocket", [watcherHeaders.user]: auth.userId });
  // Header values are ByteStrings: the name goes percent-encoded and the room decodes it.
  headers.set(watcherHeaders.name, encodeURIComponent(auth.userName));
  return room.fetch("https://room/connect", { headers });
}

export type LiveMessage =
  | { type: "comment.created" | "comment.updated" | "comment.deleted"; asset_id: string; version: number; comment: unknown }
  | { type: "approval.changed"; asset_id: string; version: number; approval: unknown };

/**
 * Sends one message to its asset's room, read once the answer is on its way (ctx.waitUntil); a failure is logged,
 * never the change's (a page reconciles from the REST lists when it reconnects).
 */
export async function pushLive(env: Env, message: () => Promise<LiveMessage | null>) {
  if (!env.REVIEW_ROOM) return;
  try {
    const m = await message();
    const room = m && roomOf(env, m.asset_id);
    if (!room) return;
    const r = await room.fetch("https://room/push", { method: "POST", body: JSON.stringify(m) });
    if (!r.ok) console.error(`review live push: room answered ${r.status}`);
  } catch (error) {
    console.error("review live push:", error);
  }
}

/** A comment as the list shows it now (created or updated), as a room message. */
export const commentMessage =
  (db: Db, type: "comment.created" | "comment.updated", commentId: string) => async (): Promise<LiveMessage | null> => {
    const comment = await listedComment(db, commentId);
    return comment && { type, asset_id: comment.asset_id, version: comment.version, comment };
  };

/** A comment as the list showed it just before its deletion (read before it, sent after). */
export async function deletedMessage(db: Db, commentId: string): Promise<LiveMessage | null> {
  const comment = await listedComment(db, commentId);
  return comment && { type: "comment.deleted", asset_id: comment.asset_id, version: comment.version, comment };
}

/** The version's approval as GET /api/review/approval shows it, as a room message. */
export const approvalMessage = (db: Db, assetId: string, version: number) => async (): Promise<LiveMessage> => ({
  type: "approval.changed",
  asset_id: assetId,
  version,
  // Everyone in the room reads the asset, not all may update it: the reviewers' e-mail addresses are left out.
  approval: await approvalOf(db, assetId, version, false),
});
