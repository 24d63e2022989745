import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../lib/env";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, routeDefiner } from "../lib/openapi";
import { contentDisposition } from "../lib/served-bytes";
import { createRequest, decide, getApproval } from "./approval";
import { createComment, deleteComment, listComments, patchComment } from "./comments";
import { exportComments } from "./export";
import guestRoutes from "./guest-routes";
import { approvalMessage, commentMessage, deletedMessage, pushLive } from "./live";
import type { RoomPush } from "./live-watcher";
import { listInbox, markInboxRead } from "./inbox";
import { reviewerCandidates } from "./reviewers";
import { reviewerCandidates as candidatesOut, reviewersQuery } from "./reviewers-schemas";
import { inboxOut, inboxQuery, inboxRead, inboxReadOut } from "./inbox-schemas";
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
  ok,
  requestBody,
  requestOut,
  versionQuery,
} from "./schemas";

/** /api/review: comments at frames, approval per version, exports (docs/decisions/061-review-and-approval.md). */
const app = createApp();
const errors = errorAnswers({
  403: "Lacks the right the change needs (author, update, a requested reviewer, admin)",
  404: "Not found, or the asset is not readable",
});
const route = routeDefiner(["review"], errors);
const origin = (url: string) => new URL(url).origin;
/** After a change: its message to the asset's live room, once the answer is sent (docs/decisions/061, "Live room"). */
const live = (c: Context<AppEnv>, message: () => Promise<RoomPush | null>) => c.executionCtx.waitUntil(pushLive(c.env, message));

app.openapi(
  route(
    "post",
    "/comments",
    "Comment on an asset version (read on the asset), at a frame, page or region, with drawings",
    { body: jsonBody(commentBody) },
    commentCreated,
  ),
  async (c) => {
    const db = getDb(c.env);
    const created = await createComment(db, c.env, c.get("auth"), c.req.valid("json"), origin(c.req.url));
    live(c, commentMessage(db, "comment.created", created.comment_id));
    return c.json(created, 200);
  },
);

app.openapi(
  route("get", "/comments", "The version's comments in time order, replies under each, with timecodes", { query: listQuery }, commentsOut),
  async (c) => {
    const { asset_id, version } = c.req.valid("query");
    return c.json(await listComments(getDb(c.env), c.get("auth"), asset_id, version), 200);
  },
);

app.openapi(
  route(
    "patch",
    "/comments/{id}",
    "Edit the text (the author) or mark resolved (the author, or update on the asset)",
    { params: commentParam, body: jsonBody(commentPatch) },
    ok,
  ),
  async (c) => {
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    const done = await patchComment(db, c.get("auth"), id, c.req.valid("json"));
    live(c, commentMessage(db, "comment.updated", id));
    return c.json(done, 200);
  },
);

app.openapi(
  route("delete", "/comments/{id}", "Delete a comment and its replies (the author or an admin)", { params: commentParam }, ok),
  async (c) => {
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    // The message carries the comment as it was listed, so it is read before it goes (and sent only if it went).
    const message = c.env.REVIEW_ROOM ? await deletedMessage(db, id).catch(() => null) : null;
    const done = await deleteComment(db, c.get("auth"), id);
    live(c, async () => message);
    return c.json(done, 200);
  },
);

app.openapi(
  route(
    "post",
    "/requests",
    "Ask users to approve a version (update on the asset); reviewers must be able to read it",
    { body: jsonBody(requestBody) },
    requestOut,
  ),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    const created = await createRequest(db, c.env, c.get("auth"), body, origin(c.req.url));
    live(c, approvalMessage(db, body.asset_id, created.version));
    return c.json(created, 200);
  },
);

app.openapi(
  route(
    "get",
    "/reviewers/{asset_id}",
    "People who may be asked to review the asset (update on it): enabled users who can read it, by name or login",
    { params: assetParam, query: reviewersQuery },
    candidatesOut,
  ),
  async (c) => c.json(await reviewerCandidates(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").q), 200),
);

app.openapi(
  route(
    "post",
    "/approval/{asset_id}",
    "Approve, request changes or reject a version (a requested reviewer, or update)",
    { params: assetParam, body: jsonBody(decisionBody) },
    approvalOut,
  ),
  async (c) => {
    const { asset_id } = c.req.valid("param");
    const db = getDb(c.env);
    const approval = await decide(db, c.get("auth"), asset_id, c.req.valid("json"));
    // Read again for the room: the decider's answer names the reviewers' addresses to a caller with update.
    live(c, approvalMessage(db, asset_id, approval.version));
    return c.json(approval, 200);
  },
);

app.openapi(
  route(
    "get",
    "/approval/{asset_id}",
    "The version's approval: overall status by the any/all rule, reviewers, decisions; every round",
    { params: assetParam, query: versionQuery },
    approvalOut,
  ),
  async (c) => c.json(await getApproval(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").version), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/export/{asset_id}",
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
  }),
  async (c) => {
    const file = await exportComments(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query"));
    return c.body(file.body, 200, { "Content-Type": file.type, "Content-Disposition": contentDisposition("attachment", file.filename) });
  },
);

// A review link's guest: open routes authorised by the link (./guest.ts).
app.route("/guest", guestRoutes);
app.openapi(
  route(
    "get",
    "/inbox",
    "The caller's «Входящие»: mentions and review requests, newest first, of assets it can read",
    { query: inboxQuery },
    inboxOut,
  ),
  async (c) => {
    const { skip, take } = c.req.valid("query");
    return c.json(await listInbox(getDb(c.env), c.get("auth"), skip, take), 200);
  },
);

app.openapi(
  route("post", "/inbox/read", "Mark the caller's inbox items read: the given ids, or all", { body: jsonBody(inboxRead) }, inboxReadOut),
  async (c) => c.json(await markInboxRead(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);

export default app;
