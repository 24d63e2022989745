import { desc, eq } from "drizzle-orm";
import { assets, shareLinks, type ShareLink } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { assetAccessList, requireAssets } from "../assets/guard";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { hashPassword } from "../lib/password";
import { mailLink } from "./email";
import { linkState } from "./public";
import type { CreateLinkBody, LinkOut, LinkState, PatchLinkBody, ShareLinkAclValue } from "../../shared/sl/schemas";
import { maskedLinkId, newLinkId } from "./tokens";

/**
 * The sharer's side: create, list, edit, revoke (docs/decisions/010-share-links.md).
 * Creating or editing needs `acl` on the asset, and `download` too when the link offers a download:
 * a link never grants more than its maker holds. Revoking is also open to the link's creator.
 */

const needsDownload = (acl: ShareLinkAclValue[]) => acl.some((a) => a !== "view");

async function requireShare(db: Db, auth: AuthUser, assetId: string, acl: ShareLinkAclValue[] | undefined) {
  await requireAssets(db, auth, "acl", [assetId]);
  if (acl && needsDownload(acl)) await requireAssets(db, auth, "download", [assetId]);
}

function stateOf(link: ShareLink, now: number): LinkState {
  const s = linkState(link, now);
  return s === null ? "active" : s === "unknown" || s === "inactive" ? "expired" : s;
}

/**
 * `recipients`: whether the caller sees who the link was mailed to. Addresses are personal data of people outside
 * the archive, so only admins and the link's creator (and whoever just set them) see them; others get [].
 */
export function linkOut(link: ShareLink, manageable: boolean, now = nowSeconds(), recipients = true): LinkOut {
  return {
    // A reader who may not manage links must not get a usable id: it could carry a download they lack.
    link_id: manageable ? link.linkId : maskedLinkId(link.linkId),
    manageable,
    asset_id: link.assetId,
    creator: link.creator,
    time_range: [link.startsAt, link.endsAt],
    has_password: link.passwordHash !== null,
    acl: link.acl,
    email: recipients ? link.emails : [],
    download_limit: link.downloadLimit,
    view_count: link.viewCount,
    download_count: link.downloadCount,
    state: stateOf(link, now),
    ctime: link.ctime,
    mtime: link.mtime,
    revoked_at: link.revokedAt,
    kind: link.kind,
    review_version: link.reviewVersion,
  };
}

const endInPast = (end: number | null, now: number) => {
  if (end !== null && end < now) {
    throw new ApiError("validation", "Неверные данные: «time_range.1»: окончание уже прошло", [
      { field: "time_range.1", message: "окончание уже прошло" },
    ]);
  }
};

/** Creates a link; answers its id. Recipients are mailed after the row exists. */
export async function createLink(db: Db, env: Env, auth: AuthUser, assetId: string, body: CreateLinkBody, origin: string) {
  await requireShare(db, auth, assetId, body.acl);
  const now = nowSeconds();
  endInPast(body.time_range[1], now);
  const linkId = newLinkId();
  const row: ShareLink = {
    linkId,
    assetId,
    creator: auth.userId,
    startsAt: body.time_range[0],
    endsAt: body.time_range[1],
    passwordHash: body.password ? await hashPassword(body.password) : null,
    acl: body.acl,
    emails: body.email,
    downloadLimit: body.download_limit ?? null,
    viewCount: 0,
    downloadCount: 0,
    revokedAt: null,
    kind: "share",
    reviewVersion: null,
    reviewerId: null,
    confirmEmail: false,
    ctime: now,
    mtime: now,
  };
  await db.batch(linkCreateWrites(db, auth, row));
  await mailTo(db, env, auth, row, body.email, origin);
  return linkId;
}

/** What the audit trail keeps of a link's settings: never the password (hash), only whether one is set. */
const eventData = (r: ShareLink) => ({
  asset: r.assetId,
  time_range: [r.startsAt, r.endsAt],
  acl: r.acl,
  email: r.emails,
  password: r.passwordHash !== null,
  download_limit: r.downloadLimit,
});

/**
 * A new link's row and its `share-link.create` event, for one batch. A review link (review/guest-links.ts, made in
 * its request's batch) also records its round and whether its guest confirms the address.
 */
export const linkCreateWrites = (db: Db, auth: AuthUser, link: ShareLink) => {
  const data =
    link.kind === "review"
      ? { ...eventData(link), kind: link.kind, version: link.reviewVersion, confirm_email: link.confirmEmail }
      : eventData(link);
  return [
    db.insert(shareLinks).values(link),
    eventInsert(db, { kind: "share-link.create", userId: auth.userId, entityType: "share_link", entityId: link.linkId, data }),
  ] as const;
};

async function mailTo(db: Db, env: Env, auth: AuthUser, link: ShareLink, to: string[], origin: string) {
  if (!to.length) return;
  const asset = await db.select({ name: assets.name }).from(assets).where(eq(assets.assetId, link.assetId)).get();
  await mailLink(db, env, {
    linkId: link.linkId,
    url: `${origin}/sl/${link.linkId}`,
    assetName: asset?.name ?? "",
    to,
    senderId: auth.userId,
    senderName: auth.userName,
  });
}

/** A review link's one address (its reviewer's) is also shown to whoever may manage the link (see linksForEntity). */
const seesRecipients = (auth: AuthUser, link: ShareLink, manageable = true) =>
  auth.isAdmin || link.creator === auth.userId || (link.kind === "review" && manageable);

/**
 * Links of an asset, newest first, for anyone who may read it; ids in full only for those who may manage. A review
 * link's address is its reviewer's, which the approval round already shows to those who manage the round: here it
 * is shown to those who may manage the link (acl, or its creator), so they can tell whose link they revoke.
 */
export async function linksForEntity(db: Db, auth: AuthUser, assetId: string) {
  const mayAcl = (await assetAccessList(db, auth, assetId)).includes("acl");
  const rows = await db.select().from(shareLinks).where(eq(shareLinks.assetId, assetId)).orderBy(desc(shareLinks.ctime)).limit(500);
  const now = nowSeconds();
  return rows.map((r) => {
    const manageable = mayAcl || r.creator === auth.userId;
    return linkOut(r, manageable, now, seesRecipients(auth, r, manageable));
  });
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * A review link's rights and address are its request's (decision 061): view, plus the proxy's download when the
 * request allowed it, for one reviewer's address, which the e-mail code is sent to. An edit may not widen the link
 * into a share link (the original's download) nor hand the reviewer's identity to another address; sending the
 * values it already has changes nothing and is accepted, so a client that sends the whole link back still works.
 */
function fixedForReview(link: ShareLink, body: PatchLinkBody): PatchLinkBody {
  if (link.kind !== "review") return body;
  const conflict = (field: string, message: string) => new ApiError("conflict", `«${field}»: ${message}`, [{ field, message }]);
  if (body.acl && !sameSet(body.acl, link.acl))
    throw conflict("acl", "права ссылки на согласование задаёт запрос согласования; их не меняют");
  if (body.email && !sameSet(body.email, link.emails))
    throw conflict("email", "адрес ссылки на согласование — адрес рецензента; его не меняют");
  const { acl: _acl, email: _email, ...rest } = body;
  return rest;
}

/** A link the caller may see (read on its asset), else 404 like an unknown one. */
async function loadLink(db: Db, auth: AuthUser, linkId: string) {
  const link = await db.select().from(shareLinks).where(eq(shareLinks.linkId, linkId)).get();
  if (!link) throw new ApiError("not_found", "Ссылка не найдена");
  await requireAssets(db, auth, "read", [link.assetId]).catch((err) => {
    throw err instanceof ApiError && err.code === "not_found" ? new ApiError("not_found", "Ссылка не найдена") : err;
  });
  return link;
}

export async function patchLink(db: Db, env: Env, auth: AuthUser, linkId: string, given: PatchLinkBody, origin: string) {
  const link = await loadLink(db, auth, linkId);
  await requireShare(db, auth, link.assetId, given.acl ?? link.acl);
  if (link.revokedAt !== null) throw new ApiError("gone", "Ссылка отозвана: её нельзя изменить");
  const body = fixedForReview(link, given);
  const now = nowSeconds();
  if (body.time_range) endInPast(body.time_range[1], now);
  const next: ShareLink = {
    ...link,
    ...(body.time_range ? { startsAt: body.time_range[0], endsAt: body.time_range[1] } : {}),
    ...(body.password !== undefined ? { passwordHash: body.password === null ? null : await hashPassword(body.password) } : {}),
    ...(body.acl ? { acl: body.acl } : {}),
    ...(body.email ? { emails: body.email } : {}),
    ...(body.download_limit !== undefined ? { downloadLimit: body.download_limit } : {}),
    mtime: now,
  };
  const { linkId: _id, viewCount: _v, downloadCount: _d, ctime: _c, ...set } = next;
  await db.batch([
    db.update(shareLinks).set(set).where(eq(shareLinks.linkId, linkId)),
    eventInsert(db, { kind: "share-link.update", userId: auth.userId, entityType: "share_link", entityId: linkId, data: eventData(next) }),
  ]);
  // Only addresses added by this edit get mail; the others already have the link.
  await mailTo(
    db,
    env,
    auth,
    next,
    next.emails.filter((e) => !link.emails.includes(e)),
    origin,
  );
  return linkOut(
    { ...next, viewCount: link.viewCount, downloadCount: link.downloadCount },
    true,
    now,
    seesRecipients(auth, link) || body.email !== undefined,
  );
}

/** Revokes for good (the row stays for its counts and the audit trail); repeating it changes nothing. */
export async function revokeLink(db: Db, auth: AuthUser, linkId: string) {
  const link = await loadLink(db, auth, linkId);
  if (link.creator !== auth.userId) await requireAssets(db, auth, "acl", [link.assetId]);
  if (link.revokedAt !== null) return linkOut(link, true, nowSeconds(), seesRecipients(auth, link));
  const now = nowSeconds();
  await db.batch([
    db.update(shareLinks).set({ revokedAt: now, mtime: now }).where(eq(shareLinks.linkId, linkId)),
    eventInsert(db, {
      kind: "share-link.revoke",
      userId: auth.userId,
      entityType: "share_link",
      entityId: linkId,
      data: { asset: link.assetId },
    }),
  ]);
  return linkOut({ ...link, revokedAt: now, mtime: now }, true, now, seesRecipients(auth, link));
}
