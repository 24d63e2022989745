import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/** What a share link lets its recipient do (its `acl`: see, download the original, download a proxy). */
export const shareLinkAcls = ["view", "download_original", "download_proxy"] as const;
export type ShareLinkAcl = (typeof shareLinkAcls)[number];

/** `share`: a file handed out; `review`: an external reviewer's link to one version's round (decision 061). */
export const shareLinkKinds = ["share", "review"] as const;

/**
 * A public short link to one asset (docs/decisions/010-share-links.md). The id is the secret in the URL:
 * 22 base62 characters from the CSPRNG (~131 bits), never a UUID or a counter. The row is kept after a
 * revoke so its counts stay in the audit trail; access is re-checked against the creator on every use.
 */
export const shareLinks = sqliteTable(
  "share_links",
  {
    linkId: text("link_id").primaryKey(),
    assetId: text("asset_id").notNull(),
    creator: text("creator").notNull(),
    /** The window in which the link works, inclusive; null = open on that side. */
    startsAt: unixTime("starts_at"),
    endsAt: unixTime("ends_at"),
    /** scrypt, like user passwords (functions/lib/password.ts); null = no password. */
    passwordHash: text("password_hash"),
    acl: text("acl", { mode: "json" }).$type<ShareLinkAcl[]>().notNull(),
    emails: text("emails", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /** The link ends once download_count reaches it; null = no limit. */
    downloadLimit: integer("download_limit"),
    viewCount: integer("view_count").notNull().default(0),
    downloadCount: integer("download_count").notNull().default(0),
    revokedAt: unixTime("revoked_at"),
    kind: text("kind", { enum: shareLinkKinds }).notNull().default("share"),
    /** A review link: the version whose round it reviews (its proxy, comments and approval). */
    reviewVersion: integer("review_version"),
    /** A review link: the external reviewer's id in the round (review_reviewers, decisions, comments); not a user. */
    reviewerId: text("reviewer_id"),
    /** A review link: the reviewer confirms the address in `emails` by a mailed code before commenting. */
    confirmEmail: integer("confirm_email", { mode: "boolean" }).notNull().default(false),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [index("share_links_asset_idx").on(t.assetId, t.ctime)],
);

export type ShareLink = typeof shareLinks.$inferSelect;
