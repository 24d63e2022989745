import { and, eq, isNull } from "drizzle-orm";
import { type ShareLink, shareLinks } from "../../db/schema";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/ids";
import type { Permission } from "../../shared/lib/permissions";
import { hashPassword } from "../lib/password";
import { mailLink } from "../sl/email";
import { linkState } from "../sl/public";
import { linkCreateWrites } from "../sl/service";
import { newLinkId } from "../sl/tokens";
import type { RequestBody } from "../../shared/review/schemas";

/**
 * Review links for e-mail reviewers without an account (docs/decisions/061-review-and-approval.md, "External
 * reviewers"): a share link of kind `review` for one address and one version's round. It shows the version's proxy
 * (never the original), its comments without internal ones, and lets its guest comment and decide as the requested
 * reviewer `reviewer_id`. Password and expiry are the share links'; the proxy's download only with `allow_download`.
 */

export const reviewPath = (linkId: string) => `/review/${linkId}`;

export interface GuestInvite {
  email: string;
  /** The body's index of the address, for a 4xx naming `reviewers.N`. */
  index: number;
}

const forbidden = (field: string, message: string) => new ApiError("forbidden", message, [{ field, message }]);

/**
 * The links of this round for these addresses: a live one already made for an address is answered again (the same
 * reviewer, the same url), others are new rows for the caller's batch. Handing a link to an outsider is sharing,
 * so it needs `acl` on the asset as a share link does, and `download` too when it offers the proxy's download.
 */
export async function guestLinks(
  db: Db,
  auth: AuthUser,
  perms: Permission[],
  b: RequestBody,
  version: number,
  invites: GuestInvite[],
  now: number,
) {
  if (!invites.length) return { links: [] as ShareLink[], fresh: [] as ShareLink[] };
  if (!perms.includes("acl"))
    throw forbidden(`reviewers.${invites[0].index}`, "Приглашать по e-mail без учётной записи может тот, у кого есть право «acl» на файл");
  if (b.allow_download && !perms.includes("download"))
    throw forbidden("allow_download", "Разрешить скачивание может тот, у кого есть право «download» на файл");
  if (b.expires_at !== undefined && b.expires_at <= now)
    throw new ApiError("validation", "Неверные данные: «expires_at»: срок уже прошёл", [
      { field: "expires_at", message: "срок уже прошёл" },
    ]);
  const existing = await db
    .select()
    .from(shareLinks)
    .where(
      and(
        eq(shareLinks.assetId, b.asset_id),
        eq(shareLinks.kind, "review"),
        eq(shareLinks.reviewVersion, version),
        isNull(shareLinks.revokedAt),
      ),
    );
  const live = new Map(existing.filter((l) => linkState(l, now) === null).map((l) => [l.emails[0], l]));
  const wanted = [...new Set(invites.map((i) => i.email))];
  const missing = wanted.filter((e) => !live.has(e));
  // One scrypt hash for all the request's new links (each is still bound to its own id wherever it is checked).
  const passwordHash = missing.length && b.password ? await hashPassword(b.password) : null;
  const fresh: ShareLink[] = missing.map((email) => ({
    linkId: newLinkId(),
    assetId: b.asset_id,
    creator: auth.userId,
    startsAt: null,
    endsAt: b.expires_at ?? null,
    passwordHash,
    acl: b.allow_download ? ["view", "download_proxy"] : ["view"],
    emails: [email],
    downloadLimit: null,
    viewCount: 0,
    downloadCount: 0,
    revokedAt: null,
    kind: "review",
    reviewVersion: version,
    reviewerId: newId(),
    confirmEmail: b.confirm_email ?? false,
    ctime: now,
    mtime: now,
  }));
  const links = wanted.map((e) => live.get(e) ?? fresh.find((f) => f.emails[0] === e)!);
  return { links, fresh };
}

/** The new links' rows and their `share-link.create` events, as every share link records its making. */
export const guestLinkWrites = (db: Db, auth: AuthUser, fresh: ShareLink[]) => fresh.flatMap((l) => linkCreateWrites(db, auth, l));

/** Each link to its address through the one mail path; the console (local runs) gets the id masked. */
export async function mailGuestLinks(db: Db, env: Env, auth: AuthUser, links: ShareLink[], assetName: string, origin: string) {
  for (const l of links) {
    const subject = `${auth.userName} просит согласовать «${assetName}», версия ${l.reviewVersion}`;
    await mailLink(db, env, {
      linkId: l.linkId,
      url: `${origin}${reviewPath(l.linkId)}`,
      assetName,
      to: l.emails,
      senderId: auth.userId,
      senderName: auth.userName,
      subject,
    });
  }
}
