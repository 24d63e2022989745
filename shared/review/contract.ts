import { z } from "@hono/zod-openapi";
import { defineRoute, errorAnswers, errorResponse, errorResponses, jsonBody, routeDefiner } from "../lib/route-contract";
import { inboxOut, inboxQuery, inboxRead, inboxReadOut } from "./inbox-schemas";
import { reviewerCandidates as candidatesOut, reviewersQuery } from "./reviewers-schemas";
import {
  approvalOut,
  assetParam,
  commentBody,
  commentCreated,
  commentParam,
  commentPatch,
  commentsOut,
  decisionBody,
  exportQuery,
  listQuery,
  liveTicketOut,
  ok,
  requestBody,
  requestOut,
  versionQuery,
} from "./schemas";

/**
 * /api/review, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md):
 * comments at frames, approval per version, exports, the inbox (docs/decisions/061-review-and-approval.md).
 */
const errors = errorAnswers({
  403: "Lacks the right the change needs (author, update, a requested reviewer, admin)",
  404: "Not found, or the asset is not readable",
});
const route = routeDefiner(["review"], errors);

export const addComment = route(
  "post",
  "/review/comments",
  "Comment on an asset version (read on the asset), at a frame, page or region, with drawings",
  { body: jsonBody(commentBody) },
  commentCreated,
);
export const listComments = route(
  "get",
  "/review/comments",
  "The version's comments in time order, replies under each, with timecodes",
  { query: listQuery },
  commentsOut,
);
export const patchComment = route(
  "patch",
  "/review/comments/{id}",
  "Edit the text (the author) or mark resolved (the author, or update on the asset)",
  { params: commentParam, body: jsonBody(commentPatch) },
  ok,
);
export const deleteComment = route(
  "delete",
  "/review/comments/{id}",
  "Delete a comment and its replies (the author or an admin)",
  { params: commentParam },
  ok,
);
export const requestReview = route(
  "post",
  "/review/requests",
  "Ask users to approve a version (update on the asset); reviewers must be able to read it",
  { body: jsonBody(requestBody) },
  requestOut,
);
export const reviewers = route(
  "get",
  "/review/reviewers/{asset_id}",
  "People who may be asked to review the asset (update on it): enabled users who can read it, by name or login",
  { params: assetParam, query: reviewersQuery },
  candidatesOut,
);
export const decide = route(
  "post",
  "/review/approval/{asset_id}",
  "Approve, request changes or reject a version (a requested reviewer, or update)",
  { params: assetParam, body: jsonBody(decisionBody) },
  approvalOut,
);
export const getApproval = route(
  "get",
  "/review/approval/{asset_id}",
  "The version's approval: overall status by the any/all rule, reviewers, decisions; every round",
  { params: assetParam, query: versionQuery },
  approvalOut,
);
export const exportComments = defineRoute({
  method: "get",
  path: "/review/export/{asset_id}",
  tags: ["review"],
  summary: "The version's comments as CSV, a CMX3600 EDL of markers, or WebVTT",
  request: { params: assetParam, query: exportQuery },
  responses: {
    200: {
      description: "The file",
      content: { "text/csv": { schema: z.string() }, "text/plain": { schema: z.string() }, "text/vtt": { schema: z.string() } },
    },
    ...errors,
  },
});
export const inbox = route(
  "get",
  "/review/inbox",
  "The caller's «Входящие»: mentions and review requests, newest first, of assets it can read",
  { query: inboxQuery },
  inboxOut,
);
export const markInboxRead = route(
  "post",
  "/review/inbox/read",
  "Mark the caller's inbox items read: the given ids, or all",
  { body: jsonBody(inboxRead) },
  inboxReadOut,
);

// The live room (./live-routes.ts): a browser cannot send headers with a WebSocket, so it asks for a ticket first,
// then connects with the ticket in the address.
const liveRoute = routeDefiner(["review"], errorAnswers({ 404: "Not found, or the asset is not readable" }));
export const liveTicket = liveRoute(
  "post",
  "/review/live-ticket/{asset_id}",
  "A short-lived ticket to the asset's live review room (read on the asset)",
  { params: assetParam },
  liveTicketOut,
);
export const liveRoom = defineRoute({
  method: "get",
  path: "/review/live/{asset_id}",
  tags: ["review"],
  summary:
    "The asset's live review room over a WebSocket: presence, and comment.created|updated|deleted and approval.changed as the REST lists show them",
  // The ticket is the credential (a WebSocket carries no Authorization header); it names the session and the asset.
  security: [],
  request: {
    params: assetParam,
    query: z.object({
      ticket: z.string().max(800).optional().openapi({
        description: "From POST /api/review/live-ticket/{asset_id}, or a guest's from POST /api/review/guest/{link_id}/live-ticket",
      }),
    }),
  },
  responses: {
    101: { description: "Switching to the WebSocket" },
    400: errorResponses[400],
    401: errorResponse(
      "No ticket, or a forged, expired or other asset's one, or its session ended or lost read on the asset, or its review link is no longer usable",
    ),
    426: errorResponse("Not a WebSocket upgrade"),
  },
});
