import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** A region of the frame, page or image in 0–1 coordinates (shared/review/schemas.ts has its zod twin). */
export interface ReviewRegion {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One drawn vector in 0–1 coordinates of the frame or image. */
export interface ReviewShape {
  type: "rect" | "ellipse" | "arrow" | "path" | "text";
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  points?: [number, number][];
  text?: string;
  color: string;
}

/**
 * A review comment on an asset version (docs/decisions/061-review-and-approval.md). A time is kept as a frame
 * number with the exact rate it was counted at (fps_num/fps_den, e.g. 30000/1001), never as float seconds, so a
 * comment made at frame N reopens at frame N; `until_frame` (a range's end) counts at the same rate.
 */
export const reviewComments = sqliteTable(
  "review_comments",
  {
    commentId: uuidKey("comment_id"),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    /** The thread's first comment for a reply; replies are one level deep. */
    parentId: text("parent_id"),
    userId: text("user_id"),
    /** The name an external reviewer gave on the review page (user_id is then the link's reviewer id). */
    guestName: text("guest_name"),
    body: text("body").notNull(),
    frame: integer("frame"),
    untilFrame: integer("until_frame"),
    fpsNum: integer("fps_num"),
    fpsDen: integer("fps_den"),
    page: integer("page"),
    region: text("region", { mode: "json" }).$type<ReviewRegion>(),
    shapes: text("shapes", { mode: "json" }).$type<ReviewShape[]>(),
    /** Seen by the team only, never by guests of a review link. */
    internal: integer("internal", { mode: "boolean" }).notNull().default(false),
    resolved: integer("resolved", { mode: "boolean" }).notNull().default(false),
    resolvedBy: text("resolved_by"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [index("review_comments_asset_idx").on(t.assetId, t.version), index("review_comments_parent_idx").on(t.parentId)],
);

/** A request for approval of one version: the version's round. A second request on it adds reviewers. */
export const reviewRequests = sqliteTable(
  "review_requests",
  {
    requestId: uuidKey("request_id"),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    allMustApprove: integer("all_must_approve", { mode: "boolean" }).notNull().default(false),
    due: unixTime("due"),
    userId: text("user_id"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [uniqueIndex("review_requests_version_unique").on(t.assetId, t.version)],
);

export const reviewReviewers = sqliteTable(
  "review_reviewers",
  {
    requestId: text("request_id").notNull(),
    userId: text("user_id").notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.userId] }), index("review_reviewers_user_idx").on(t.userId)],
);

export const reviewStatusValues = ["approved", "changes_requested", "rejected"] as const;

/** Every decision is kept (who decided what and when); a reviewer's latest one on a version counts. */
export const reviewDecisions = sqliteTable(
  "review_decisions",
  {
    decisionId: uuidKey("decision_id"),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    userId: text("user_id").notNull(),
    status: text("status", { enum: reviewStatusValues }).notNull(),
    note: text("note").notNull().default(""),
    /** As on comments: an external reviewer's given name. */
    guestName: text("guest_name"),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [index("review_decisions_version_idx").on(t.assetId, t.version, t.ctime)],
);

export type ReviewComment = typeof reviewComments.$inferSelect;
export type ReviewRequest = typeof reviewRequests.$inferSelect;
export type ReviewDecision = typeof reviewDecisions.$inferSelect;
