import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

export const reviewInboxKinds = ["mention", "request"] as const;

/**
 * A user's «Входящие» (docs/decisions/061-review-and-approval.md): a mention of them in a review comment, or a
 * request to approve a version. Written in the same batch as the comment or the request, so an item exists exactly
 * when its cause does; whether the user may still read the asset is checked when the list is read.
 */
export const reviewInbox = sqliteTable(
  "review_inbox",
  {
    itemId: uuidKey("item_id"),
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: reviewInboxKinds }).notNull(),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    /** The comment that mentions the user (kind mention). */
    commentId: text("comment_id"),
    /** The request that asks the user (kind request). */
    requestId: text("request_id"),
    /** Who mentioned or asked. */
    actorId: text("actor_id"),
    ctime: unixTime("ctime").notNull(),
    readAt: unixTime("read_at"),
  },
  (t) => [
    index("review_inbox_user_idx").on(t.userId, t.ctime),
    index("review_inbox_comment_idx").on(t.commentId),
    // The version's and the asset's clean-up (migration 0035's triggers) find their items by it.
    index("review_inbox_asset_idx").on(t.assetId, t.version),
  ],
);

export type ReviewInboxItem = typeof reviewInbox.$inferSelect;
