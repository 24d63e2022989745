import type { Context } from "hono";
import type { AppEnv } from "../lib/env";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import { contentDisposition } from "../../shared/lib/served-bytes";
import { createRequest, decide, getApproval } from "./approval";
import { createComment, deleteComment, listComments, patchComment } from "./comments";
import * as r from "../../shared/review/contract";
import { exportComments } from "./export";
import guestRoutes from "./guest-routes";
import { approvalMessage, commentMessage, deletedMessage, pushLive } from "./live";
import type { RoomPush } from "./live-watcher";
import { listInbox, markInboxRead } from "./inbox";
import { reviewerCandidates } from "./reviewers";

/** /api/review: the handlers of ./contract.ts's routes, comments at frames, approval per version, exports (docs/decisions/061-review-and-approval.md). */
const app = createApp();
const origin = (url: string) => new URL(url).origin;
/** After a change: its message to the asset's live room, once the answer is sent (docs/decisions/061, "Live room"). */
const live = (c: Context<AppEnv>, message: () => Promise<RoomPush | null>) => c.executionCtx.waitUntil(pushLive(c.env, message));

app.openapi(r.addComment, async (c) => {
  const db = getDb(c.env);
  const created = await createComment(db, c.env, c.get("auth"), c.req.valid("json"), origin(c.req.url));
  live(c, commentMessage(db, "comment.created", created.comment_id));
  return c.json(created, 200);
});

app.openapi(r.listComments, async (c) => {
  const { asset_id, version } = c.req.valid("query");
  return c.json(await listComments(getDb(c.env), c.get("auth"), asset_id, version), 200);
});

app.openapi(r.patchComment, async (c) => {
  const db = getDb(c.env);
  const { id } = c.req.valid("param");
  const done = await patchComment(db, c.get("auth"), id, c.req.valid("json"));
  live(c, commentMessage(db, "comment.updated", id));
  return c.json(done, 200);
});

app.openapi(r.deleteComment, async (c) => {
  const db = getDb(c.env);
  const { id } = c.req.valid("param");
  // The message carries the comment as it was listed, so it is read before it goes (and sent only if it went).
  const message = c.env.REVIEW_ROOM ? await deletedMessage(db, id).catch(() => null) : null;
  const done = await deleteComment(db, c.get("auth"), id);
  live(c, async () => message);
  return c.json(done, 200);
});

app.openapi(r.requestReview, async (c) => {
  const db = getDb(c.env);
  const body = c.req.valid("json");
  const created = await createRequest(db, c.env, c.get("auth"), body, origin(c.req.url));
  live(c, approvalMessage(db, body.asset_id, created.version));
  return c.json(created, 200);
});

app.openapi(r.reviewers, async (c) =>
  c.json(await reviewerCandidates(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").q), 200),
);

app.openapi(r.decide, async (c) => {
  const { asset_id } = c.req.valid("param");
  const db = getDb(c.env);
  const approval = await decide(db, c.get("auth"), asset_id, c.req.valid("json"));
  // Read again for the room: the decider's answer names the reviewers' addresses to a caller with update.
  live(c, approvalMessage(db, asset_id, approval.version));
  return c.json(approval, 200);
});

app.openapi(r.getApproval, async (c) =>
  c.json(await getApproval(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").version), 200),
);

app.openapi(r.exportComments, async (c) => {
  const file = await exportComments(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query"));
  return c.body(file.body, 200, { "Content-Type": file.type, "Content-Disposition": contentDisposition("attachment", file.filename) });
});

// A review link's guest: open routes authorised by the link (./guest.ts).
app.route("/review/guest", guestRoutes);
app.openapi(r.inbox, async (c) => {
  const { skip, take } = c.req.valid("query");
  return c.json(await listInbox(getDb(c.env), c.get("auth"), skip, take), 200);
});

app.openapi(r.markInboxRead, async (c) => c.json(await markInboxRead(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));

export default app;
