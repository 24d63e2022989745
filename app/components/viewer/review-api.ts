import type { z } from "@hono/zod-openapi";
import type {
  ApprovalOut,
  CommentBody,
  CommentOut,
  commentsOut,
  Moment,
  OverallStatus,
  RequestBody,
  requestOut,
  ReviewStatus,
  Shape,
} from "../../../shared/review/schemas";
import { timecode } from "../../../shared/review/timecode";
import * as review from "../../../shared/review/contract";
import { call } from "../../lib/api";

/** The viewer's calls to /api/review (docs/decisions/061-review-and-approval.md); the shapes are the API's own schemas. */

export type { ApprovalOut, CommentOut, OverallStatus, ReviewStatus };
export type CommentsOut = z.infer<typeof commentsOut>;
export type RequestOut = z.infer<typeof requestOut>;
export type NewComment = Pick<CommentBody, "asset_id" | "body"> & {
  version?: number;
  at?: Moment;
  until?: Moment;
  /** A PDF's page, from 1. */
  page?: number;
  parent_id?: string;
  shapes?: Shape[];
  internal?: boolean;
};

export const listComments = (assetId: string, version: number, signal?: AbortSignal) =>
  call(review.listComments, { query: { asset_id: assetId, version }, signal });

export const addComment = (body: NewComment) => call(review.addComment, { body });

export const setResolved = (commentId: string, resolved: boolean) =>
  call(review.patchComment, { params: { id: commentId }, body: { resolved } });

export const deleteComment = (commentId: string) => call(review.deleteComment, { params: { id: commentId } });

export const getApproval = (assetId: string, version: number, signal?: AbortSignal) =>
  call(review.getApproval, { params: { asset_id: assetId }, query: { version }, signal });

/**
 * What the review panel opens with: the version's comments, its approval round and a ticket to the asset's live room
 * (each null when it could not be had).
 */
export interface ReviewState {
  comments: CommentsOut | null;
  approval: ApprovalOut | null;
  ticket: { ticket: string; expires: number } | null;
}

/** The viewer's loader reads the review with the rest of the screen; a failure leaves the panel empty, not the screen. */
export async function loadReview(assetId: string, version: number, signal: AbortSignal): Promise<ReviewState> {
  const logged = (error: unknown) => {
    if (!signal.aborted) console.error(error);
    return null;
  };
  const [comments, approval, ticket] = await Promise.all([
    listComments(assetId, version, signal).catch(logged),
    getApproval(assetId, version, signal).catch(logged),
    call(review.liveTicket, { params: { asset_id: assetId }, signal }).catch(logged),
  ]);
  return { comments, approval, ticket };
}

/** Asks for approval (POST /api/review/requests): users by id, outside addresses get review links, answered in `links`. */
export const requestReview = (body: RequestBody) => call(review.requestReview, { body });

/** The people the caller may ask to review the asset, by name or login (GET /api/review/reviewers). */
export const findReviewers = (assetId: string, q: string, signal?: AbortSignal) =>
  call(review.reviewers, { params: { asset_id: assetId }, query: { q: q || undefined }, signal });

export const decide = (assetId: string, version: number, status: ReviewStatus) =>
  call(review.decide, { params: { asset_id: assetId }, body: { version, status } });

/**
 * The moment of the frame the player shows at `seconds`: at a known rate, the frame whose display has begun (a
 * paused player shows the frame that started at or before its time), sent as a frame with its rate so it reopens
 * exactly; without one, the seconds, which the API turns into a frame at the version's rate. A hundredth of a
 * frame of slack: a time set to a frame's exact start may read back a little early (float error, and players
 * that keep time in whole microseconds).
 */
export function momentAt(seconds: number, rate: CommentsOut["rate"]): Moment {
  if (!rate) return { seconds };
  return { frame: Math.max(0, Math.floor((seconds * rate.fps_num) / rate.fps_den + 0.01)), fps_num: rate.fps_num, fps_den: rate.fps_den };
}

/** The playhead's timecode as a comment made now will show it (the same frame as `momentAt`); null without a rate. */
export function timecodeAt(seconds: number, rate: CommentsOut["rate"]): string | null {
  const m = momentAt(seconds, rate);
  return m.frame !== undefined && rate ? timecode(m.frame, { num: rate.fps_num, den: rate.fps_den }) : null;
}
