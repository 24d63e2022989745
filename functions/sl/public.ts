import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { assets, groupMembers, groups, shareLinks, users, variants, type ShareLink, type Variant } from "../../db/schema";
import { accessContext, assetPermissions, placedAnywhere } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { linkIdPattern, type PublicInfo, type ShareLinkAclValue } from "../../shared/sl/schemas";
import { readCookie, unlockCookieName, verifyUnlock } from "./tokens";

/**
 * The recipient's side of a share link: is it usable now, what may they do, which bytes are behind it.
 * Shared by the open API routes (./public-routes.ts) and the server-rendered page (app/routes/sl.$id.tsx).
 */

/** Why a link does not work; the page picks its Russian text by it, the API answers 404 or 410. */
export type UnavailableReason = "unknown" | "scheduled" | "expired" | "revoked" | "exhausted" | "inactive";

export class LinkUnavailable extends ApiError {
  constructor(readonly reason: UnavailableReason) {
    const gone = reason !== "unknown" && reason !== "scheduled";
    super(gone ? "gone" : "not_found", unavailableMessages[reason]);
  }
}

const unavailableMessages: Record<UnavailableReason, string> = {
  unknown: "Ссылка не найдена",
  scheduled: "Ссылка ещё не действует",
  expired: "Срок действия ссылки истёк",
  revoked: "Ссылка отозвана",
  exhausted: "Лимит скачиваний по ссылке исчерпан",
  inactive: "Ссылка больше не действует",
};

export interface OpenLink {
  link: ShareLink;
  asset: { name: string; mimetype: string };
  /** The link's acl narrowed to what its creator may still do. */
  allowed: Set<ShareLinkAclValue>;
  original: Variant | null;
  proxy: Variant | null;
  /** What a `view` link shows: a proxy or a watermarked copy, never the original. */
  viewable: Variant | null;
  preview: Variant | null;
  unlocked: boolean;
}

/** Inclusive window, revocation and download limit: the link row alone decides these. */
export function linkState(link: ShareLink, now: number): UnavailableReason | null {
  if (link.revokedAt !== null) return "revoked";
  if (link.startsAt !== null && now < link.startsAt) return "scheduled";
  if (link.endsAt !== null && now > link.endsAt) return "expired";
  if (link.downloadLimit !== null && link.downloadCount >= link.downloadLimit) return "exhausted";
  return null;
}

/** The creator as the permission engine sees them; null when disabled or deleted. */
function creatorAuth(u: typeof users.$inferSelect | undefined): AuthUser | null {
  if (!u?.enabled) return null;
  return {
    userId: u.userId,
    userName: u.userName,
    login: u.login,
    isAdmin: u.isAdmin,
    isRobot: u.isRobot,
    chrootGroups: u.chrootGroups,
    sessionId: "share-link",
  };
}

/**
 * Opens a link for a recipient, or throws LinkUnavailable. The creator's rights are re-read on every use,
 * so a link never outlives them: view needs their read, downloads their download permission.
 */
export async function openLink(
  db: Db,
  env: Pick<Env, "JWT_SECRET">,
  id: string,
  cookieHeader: string | null,
  now: number,
): Promise<OpenLink> {
  if (!linkIdPattern.test(id)) throw new LinkUnavailable("unknown");
  // One round trip for the link, its asset, creator, variants and placements: this is the page's TTFB.
  const ofLink = <T extends SQLiteColumn>(col: T) =>
    inArray(col, db.select({ id: shareLinks.assetId }).from(shareLinks).where(eq(shareLinks.linkId, id)));
  const [[link], [asset], [creator], vars, places] = await db.batch([
    db.select().from(shareLinks).where(eq(shareLinks.linkId, id)),
    db
      .select({ name: assets.name, mimetype: assets.mimetype, owner: assets.owner, placed: placedAnywhere(assets.assetId) })
      .from(assets)
      .where(ofLink(assets.assetId)),
    db
      .select()
      .from(users)
      .where(inArray(users.userId, db.select({ id: shareLinks.creator }).from(shareLinks).where(eq(shareLinks.linkId, id)))),
    db.select().from(variants).where(ofLink(variants.assetId)).orderBy(desc(variants.version), desc(variants.ctime)),
    db
      .select({ path: groups.path })
      .from(groupMembers)
      .innerJoin(groups, and(eq(groups.groupId, groupMembers.groupId), isNull(groups.deletedAt)))
      .where(and(ofLink(groupMembers.elId), eq(groupMembers.elType, "asset"))),
  ]);
  if (!link) throw new LinkUnavailable("unknown");
  const state = linkState(link, now);
  if (state) throw new LinkUnavailable(state);
  const auth = creatorAuth(creator);
  if (!asset || !auth) throw new LinkUnavailable("inactive");
  const placing = { id: link.assetId, placements: places.map((p) => p.path), owner: asset.owner, placed: Boolean(asset.placed) };
  const perms = assetPermissions(await accessContext(db, auth), placing) ?? [];
  const allowed = new Set(link.acl.filter((a) => (a === "view" ? perms.includes("read") : perms.includes("download"))));
  if (allowed.size === 0) throw new LinkUnavailable("inactive");
  // A review link (decision 061) shows the version whose round it reviews; a share link the latest.
  const shown = link.reviewVersion ?? vars[0]?.version;
  const latest = vars.filter((v) => v.version === shown);
  const byType = (...types: Variant["variantType"][]) => types.map((t) => latest.find((v) => v.variantType === t)).find(Boolean) ?? null;
  const original = byType("initial", "master", "untyped", "watermarked");
  const proxy = byType("proxy_highres", "proxy_lowres");
  const viewable = byType("proxy_highres", "proxy_lowres", "watermarked");
  const preview = latest.find((v) => v.previewKey && v.previewStorageId) ?? null;
  const unlocked =
    !link.passwordHash ||
    (await verifyUnlock(env.JWT_SECRET, link.linkId, link.passwordHash, readCookie(cookieHeader, unlockCookieName(link.linkId))));
  return { link, asset, allowed, original, proxy, viewable, preview, unlocked };
}

export const kindOf = (mime: string): NonNullable<PublicInfo["kind"]> => {
  const top = mime.split("/")[0];
  return top === "image" || top === "video" || top === "audio" ? top : "other";
};

/**
 * The variant a player or <img> shows: a proxy or watermarked copy, as `read` gets in the app. Never
 * the original, even on a link that may download it: playing it would be an uncounted download.
 */
export const playVariant = (o: OpenLink) => o.viewable;

/** The public page's data; before the password only whether one is needed. URLs are same-origin paths. */
export function publicInfo(o: OpenLink): PublicInfo {
  const base = `/api/sl/${o.link.linkId}`;
  const locked: PublicInfo = {
    link_id: o.link.linkId,
    password_required: o.link.passwordHash !== null,
    unlocked: o.unlocked,
    name: null,
    mime: null,
    size: null,
    kind: null,
    preview: null,
    play: null,
    download: null,
    download_proxy: null,
    expires_at: o.link.endsAt,
  };
  if (!o.unlocked) return locked;
  const play = playVariant(o);
  const mime = o.original?.mimeType ?? o.asset.mimetype;
  const view = o.allowed.has("view");
  return {
    ...locked,
    name: o.asset.name,
    mime,
    size: o.original?.contentSize ?? null,
    kind: kindOf(mime),
    preview: view && o.preview ? `${base}/preview` : null,
    play: view && play ? `${base}/play` : null,
    download: o.allowed.has("download_original") && o.original ? `${base}/download/original` : null,
    download_proxy: o.allowed.has("download_proxy") && o.proxy ? `${base}/download/proxy` : null,
  };
}

/**
 * Cache-Control for what a link serves. Only a link without a password may be cached, and only its page
 * (not when it has a download limit; the Worker stores and purges it, ./page-cache.ts),
 * preview and player bytes, for at most a minute (a revoke or lost right reaches the edge that fast) and
 * never past the window's end. Downloads and anything behind a password are never stored.
 */
export function cacheControl(o: OpenLink, kind: "page" | "media" | "download", now: number) {
  // A review link's answers belong to one guest and their session (decision 061): never stored on the way.
  if (kind === "download" || o.link.passwordHash || o.link.kind === "review") return "private, no-store";
  // A limited link's page changes with every download (it ends when the limit is reached): not stored.
  if (kind === "page" && o.link.downloadLimit !== null) return "private, no-store";
  const ttl = Math.min(60, o.link.endsAt === null ? 60 : o.link.endsAt - now);
  return ttl > 0 ? `public, max-age=${ttl}, s-maxage=${ttl}` : "private, no-store";
}
