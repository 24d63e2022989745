import { eq } from "drizzle-orm";
import { reviewComments, type ShareLink } from "../../db/schema";
import { addressKey } from "../lib/address";
import { countAttempt, giveBack, throttled } from "../lib/attempts";
import { type GuestGrant, requireGuestAccess } from "../lib/access";
import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { sendMail } from "../lib/mail";
import { kindOf, LinkUnavailable, type OpenLink, openLink } from "../sl/public";
import { readCookie } from "../sl/tokens";
import { latestOf, overallOf, recordDecision, roundOf } from "./approval";
import { bad, type CommentAuthor, commentWrites, deleteWrites, loadComments, missing, patchWrites, prepareComment } from "./comments";
import { versionPages, versionRate } from "./common";
import { codeWindow, emailCode, type GuestSession, guestCookieName, readSession, sessionCookie, sessionValue } from "./guest-session";
import type { GuestCommentBody, GuestDecisionBody, GuestInfo } from "../../shared/review/guest-schemas";

/**
 * A review link's guest in the review API (docs/decisions/061-review-and-approval.md, "External reviewers"). The link
 * id in the path is the token (the capability, as for share links), with the share link's unlock cookie when it has a
 * password and the guest session cookie (./guest-session.ts) for the name and the confirmed address. What it grants
 * goes through the permission engine (guestPermissions, functions/lib/access-rules.ts): read on the link's asset
 * within its version's round, where the guest comments and decides as the round's requested reviewer `reviewer_id`,
 * and nothing else.
 */

export interface Guest extends GuestGrant {
  open: OpenLink;
  link: ShareLink;
  reviewerId: string;
  session: GuestSession | null;
}

const locked = () => new ApiError("forbidden", "Ссылка защищена паролем");

/** Opens a review link for its guest: a share link of another kind, or a missing one, is unknown (404). */
export async function openGuest(db: Db, env: Pick<Env, "JWT_SECRET">, linkId: string, cookies: string | null, now: number) {
  const open = await openLink(db, env, linkId, cookies, now);
  const { link } = open;
  if (link.kind !== "review" || link.reviewVersion === null || !link.reviewerId) throw new LinkUnavailable("unknown");
  if (!open.allowed.has("view")) throw new LinkUnavailable("inactive");
  const session = open.unlocked ? await readSession(env.JWT_SECRET, link, readCookie(cookies, guestCookieName(linkId))) : null;
  return { open, link, assetId: link.assetId, version: link.reviewVersion, reviewerId: link.reviewerId, session } satisfies Guest;
}

/** Past the password: reading the round's comments and approval. */
export function unlockedGuest(g: Guest) {
  if (!g.open.unlocked) throw locked();
  return g;
}

/** Writing (comments, decisions): the name given and, when the request asked, the address confirmed. */
export function speakingGuest(g: Guest): Guest & { session: GuestSession } & CommentAuthor {
  unlockedGuest(g);
  if (!g.session) throw new ApiError("forbidden", "Сначала представьтесь", [{ field: "name", message: "представьтесь" }]);
  if (g.link.confirmEmail && !g.session.verified)
    throw new ApiError("forbidden", "Подтвердите адрес e-mail кодом из письма", [{ field: "code", message: "подтвердите адрес" }]);
  return { ...g, session: g.session, id: g.reviewerId, guestName: g.session.name };
}

/** `a***@example.com`: enough for the guest to know where the code went, not the whole address to whoever has the link. */
const maskedAddress = (email: string) => email.replace(/^(.)[^@]*/, "$1***");

export async function guestInfo(db: Db, g: Guest): Promise<GuestInfo> {
  const base = {
    link_id: g.link.linkId,
    password_required: g.link.passwordHash !== null,
    unlocked: g.open.unlocked,
    expires_at: g.link.endsAt,
  };
  if (!g.open.unlocked) return { ...base, asset: null, version: null, rate: null, play: null, download: null, guest: null, approval: null };
  const rate = await versionRate(db, g.assetId, g.version);
  const round = await roundOf(db, g.assetId, g.version);
  const mine = latestOf(round.decisions).get(g.reviewerId);
  const mime = g.open.original?.mimeType ?? g.open.asset.mimetype;
  const api = `/api/sl/${g.link.linkId}`;
  return {
    ...base,
    asset: { name: g.open.asset.name, mime, kind: kindOf(mime) },
    version: g.version,
    rate: rate && { fps_num: rate.num, fps_den: rate.den },
    play: g.open.viewable ? `${api}/play` : null,
    download: g.open.allowed.has("download_proxy") && g.open.proxy ? `${api}/download/proxy` : null,
    guest: {
      name: g.session?.name ?? null,
      confirm_email: g.link.confirmEmail,
      email_confirmed: !g.link.confirmEmail || !!g.session?.verified,
      email: maskedAddress(g.link.emails[0] ?? ""),
    },
    approval: { overall: overallOf(round), status: mine?.status ?? "pending", note: mine?.note ?? "" },
  };
}

/** The name, once: a new session cookie for this link; a confirmed address stays confirmed. */
export async function nameGuest(env: Env, g: Guest, name: string, secure: boolean, now: number) {
  unlockedGuest(g);
  const session = { name, verified: g.session?.verified ?? false };
  return sessionCookie(g.link.linkId, await sessionValue(env.JWT_SECRET, g.link, session, now), secure);
}

const codeLimits = {
  mail: { max: 5, windowSeconds: 15 * 60 },
  guess: { max: 10, windowSeconds: 15 * 60 },
  ip: { max: 30, windowSeconds: 15 * 60 },
} as const;

const notAsked = () => bad("code", "эта ссылка не просит подтверждать адрес");

/** Mails the code to the link's address (at most 5 mails per link in 15 minutes). */
export async function mailCode(db: Db, env: Env, g: Guest, now: number) {
  unlockedGuest(g);
  if (!g.link.confirmEmail) throw notAsked();
  const [[sent]] = await db.batch([countAttempt(db, `rv-mail:${g.link.linkId}`, codeLimits.mail, now)]);
  if (sent.failures > codeLimits.mail.max) throw throttled("Слишком много писем с кодом. Повторите позже.", sent.windowEnds - now);
  const code = await emailCode(env.JWT_SECRET, g.link, codeWindow(now));
  const subject = `Код подтверждения: ${code}`;
  const text = `${subject}\n\nВведите его на странице согласования «${g.open.asset.name}». Код действует 15 минут.`;
  // The console (local runs) never gets the code: whoever reads logs must not confirm someone else's address.
  const [result] = await sendMail(env, [g.link.emails[0]], subject, text, "Код подтверждения: ******");
  if (!result?.ok) throw new ApiError("unavailable", "Письмо с кодом не отправлено. Повторите позже.");
  return { sent_to: maskedAddress(g.link.emails[0]) };
}

/** A right code (this window's or the last one's) confirms the address in the session; guesses are throttled per link and address. */
export async function confirmCode(db: Db, env: Env, g: Guest, code: string, ip: string, secure: boolean, now: number) {
  unlockedGuest(g);
  if (!g.link.confirmEmail) throw notAsked();
  if (!g.session) throw new ApiError("forbidden", "Сначала представьтесь", [{ field: "name", message: "представьтесь" }]);
  const keys = { link: `rv-code:${g.link.linkId}`, ip: `rv-code-ip:${addressKey(ip)}` };
  const [[byIp], [byLink]] = await db.batch([
    countAttempt(db, keys.ip, codeLimits.ip, now),
    countAttempt(db, keys.link, codeLimits.guess, now),
  ]);
  const over = byIp.failures > codeLimits.ip.max ? byIp : byLink.failures > codeLimits.guess.max ? byLink : null;
  if (over) throw throttled("Слишком много неверных кодов. Повторите позже.", over.windowEnds - now);
  const w = codeWindow(now);
  const right = [await emailCode(env.JWT_SECRET, g.link, w), await emailCode(env.JWT_SECRET, g.link, w - 1)];
  if (!right.includes(code)) throw new ApiError("forbidden", "Неверный код", [{ field: "code", message: "неверный код" }]);
  await db.batch([giveBack(db, keys.link), giveBack(db, keys.ip)]);
  const session = { name: g.session.name, verified: true };
  return sessionCookie(g.link.linkId, await sessionValue(env.JWT_SECRET, g.link, session, now), secure);
}

/** The round's comments without internal ones; other authors' ids are left out (a guest needs their names only). */
export async function guestComments(db: Db, g: Guest) {
  unlockedGuest(g);
  requireGuestAccess(g, g.assetId, g.version);
  const [rate, pages] = await Promise.all([versionRate(db, g.assetId, g.version), versionPages(db, g.assetId, g.version)]);
  const own = <T extends { author: { user_id: string | null } }>(c: T) =>
    c.author.user_id === g.reviewerId ? c : { ...c, author: { ...c.author, user_id: null } };
  const items = (await loadComments(db, g.assetId, g.version, rate, true)).map((c) => ({ ...own(c), replies: c.replies.map(own) }));
  return { asset_id: g.assetId, version: g.version, rate: rate && { fps_num: rate.num, fps_den: rate.den }, pages, items };
}

/** A comment or reply by the guest, under the name they gave; never internal, no mentions (a guest mails nobody). */
export async function guestComment(db: Db, g: Guest, c: GuestCommentBody) {
  const s = speakingGuest(g);
  const body = { ...c, asset_id: g.assetId, version: g.version, internal: false };
  const prepared = await prepareComment(db, body, true);
  requireGuestAccess(g, g.assetId, prepared.version);
  const { commentId, writes } = commentWrites(db, s, body, prepared, []);
  await db.batch(writes);
  return { comment_id: commentId, version: prepared.version };
}

/**
 * A comment as the guest may touch it: one of their round they can see (never an internal one, never another
 * version's or asset's: 404 as a missing one), and their own to edit, resolve or delete (403 for others').
 */
async function ownComment(db: Db, g: Guest, id: string) {
  const row = await db.select().from(reviewComments).where(eq(reviewComments.commentId, id)).get();
  if (!row || row.internal) throw missing();
  try {
    requireGuestAccess(g, row.assetId, row.version);
  } catch {
    throw missing();
  }
  if (row.userId !== g.reviewerId) throw new ApiError("forbidden", "Менять и удалять можно только свои комментарии");
  return row;
}

export async function guestPatch(db: Db, g: Guest, id: string, p: { body?: string; resolved?: boolean }) {
  const s = speakingGuest(g);
  await db.batch(patchWrites(db, await ownComment(db, g, id), s, p));
  return { ok: true as const };
}

export async function guestDelete(db: Db, g: Guest, id: string) {
  const s = speakingGuest(g);
  await db.batch(deleteWrites(db, await ownComment(db, g, id), s));
  return { ok: true as const };
}

/** The guest's decision, as the requested reviewer of their link's round (and for nobody else). */
export async function guestDecide(db: Db, g: Guest, b: GuestDecisionBody) {
  const s = speakingGuest(g);
  requireGuestAccess(g, g.assetId, g.version);
  const before = await roundOf(db, g.assetId, g.version);
  if (!before.reviewers.includes(g.reviewerId)) throw new ApiError("forbidden", "Эту версию вас не просили согласовать");
  const after = await recordDecision(db, s, g.assetId, before, b);
  return { overall: overallOf(after), status: b.status, note: b.note ?? "" };
}
