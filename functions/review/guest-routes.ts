import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { countView } from "../sl/recipient";
import {
  confirmCode,
  guestComment,
  guestComments,
  guestDecide,
  guestDelete,
  guestInfo,
  guestPatch,
  mailCode,
  nameGuest,
  openGuest,
} from "./guest";
import {
  codeBody,
  guestApprovalOut,
  guestCommentBody,
  guestCommentParam,
  guestCommentPatch,
  guestDecisionBody,
  guestInfo as guestInfoSchema,
  guestLiveTicketOut,
  guestParam,
  nameBody,
} from "../../shared/review/guest-schemas";
import { approvalMessage, commentMessage, deletedMessage, guestLiveTicket, pushLive } from "./live";
import type { RoomPush } from "./live-watcher";
import { commentCreated, commentsOut, ok } from "../../shared/review/schemas";

/**
 * /api/review/guest/{link_id}: a review link's guest (docs/decisions/061-review-and-approval.md, "External
 * reviewers"). Open routes (no bearer): the link id, its unlock cookie and the guest session decide, as in ./guest.ts.
 * Every answer is `private, no-store`: it belongs to one guest's session and is never stored on the way.
 */
const app = createApp();
const tags = ["review (guests)"];
const err = (description: string) => ({ description, content: errorResponses[400].content });
const errors = {
  400: errorResponses[400],
  403: err("Locked by a password; no name given or address not confirmed; another's comment; not a requested reviewer"),
  404: err("Unknown link or comment (another asset's, version's, or an internal one)"),
  410: err("Revoked or expired, or its creator lost the right"),
  429: err("Too many codes mailed or guessed; see Retry-After"),
};
const now = () => Math.floor(Date.now() / 1000);
const noStore = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
const guestOf = (c: Context<AppEnv>, id: string) => openGuest(getDb(c.env), c.env, id, c.req.header("Cookie") ?? null, now());
const secure = (c: Context<AppEnv>) => new URL(c.req.url).protocol === "https:";
const open = { security: [] as [], tags };
/** A guest's change goes to the asset's live room as the team's do (docs/decisions/061, "Guests in the live room"). */
const live = (c: Context<AppEnv>, push: () => Promise<RoomPush | null>) => c.executionCtx.waitUntil(pushLive(c.env, push));

app.openapi(
  createRoute({
    ...open,
    method: "get",
    path: "/{link_id}",
    summary: "The review page's data: the asset, its proxy, the guest's session and decision (open)",
    request: { params: guestParam },
    responses: { 200: jsonContent(guestInfoSchema), ...errors },
  }),
  async (c) => {
    const g = await guestOf(c, c.req.valid("param").link_id);
    if (g.open.unlocked) c.executionCtx.waitUntil(countView(getDb(c.env), g.link.linkId, c.env));
    return c.json(await guestInfo(getDb(c.env), g), 200, noStore);
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "post",
    path: "/{link_id}/session",
    summary: "Give a name: a signed httpOnly cookie for this link holds it (open)",
    request: { params: guestParam, body: jsonBody(nameBody) },
    responses: { 200: jsonContent(guestInfoSchema), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const g = await guestOf(c, c.req.valid("param").link_id);
    const name = c.req.valid("json").name;
    const cookie = await nameGuest(c.env, g, name, secure(c), now());
    const info = await guestInfo(db, { ...g, session: { name, verified: g.session?.verified ?? false } });
    return c.json(info, 200, { ...noStore, "Set-Cookie": cookie });
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "post",
    path: "/{link_id}/code",
    summary: "Mail a confirmation code to the link's address, when its request asked for one (open)",
    request: { params: guestParam },
    responses: { 200: jsonContent(z.object({ sent_to: z.string() })), ...errors },
  }),
  async (c) => {
    const g = await guestOf(c, c.req.valid("param").link_id);
    return c.json(await mailCode(getDb(c.env), c.env, g, now()), 200, noStore);
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "post",
    path: "/{link_id}/confirm",
    summary: "Confirm the address with the mailed code: the session cookie then says so (open)",
    request: { params: guestParam, body: jsonBody(codeBody) },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    const g = await guestOf(c, c.req.valid("param").link_id);
    const ip = c.req.header("CF-Connecting-IP") ?? "local";
    const cookie = await confirmCode(getDb(c.env), c.env, g, c.req.valid("json").code, ip, secure(c), now());
    return c.json({ ok: true as const }, 200, { ...noStore, "Set-Cookie": cookie });
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "get",
    path: "/{link_id}/comments",
    summary: "The round's comments without internal ones (open)",
    request: { params: guestParam },
    responses: { 200: jsonContent(commentsOut), ...errors },
  }),
  async (c) => c.json(await guestComments(getDb(c.env), await guestOf(c, c.req.valid("param").link_id)), 200, noStore),
);

app.openapi(
  createRoute({
    ...open,
    method: "post",
    path: "/{link_id}/comments",
    summary: "Comment or reply under the given name; never internal (open)",
    request: { params: guestParam, body: jsonBody(guestCommentBody) },
    responses: { 200: jsonContent(commentCreated), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const g = await guestOf(c, c.req.valid("param").link_id);
    const created = await guestComment(db, g, c.req.valid("json"));
    live(c, commentMessage(db, "comment.created", created.comment_id));
    return c.json(created, 200, noStore);
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "patch",
    path: "/{link_id}/comments/{id}",
    summary: "Edit or resolve one's own comment (open)",
    request: { params: guestCommentParam, body: jsonBody(guestCommentPatch) },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const { link_id, id } = c.req.valid("param");
    const done = await guestPatch(db, await guestOf(c, link_id), id, c.req.valid("json"));
    live(c, commentMessage(db, "comment.updated", id));
    return c.json(done, 200, noStore);
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "delete",
    path: "/{link_id}/comments/{id}",
    summary: "Delete one's own comment with its replies (open)",
    request: { params: guestCommentParam },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const { link_id, id } = c.req.valid("param");
    const g = await guestOf(c, link_id);
    // As the team's route: the message carries the comment as listed before it went, sent only if it went.
    const message = c.env.REVIEW_ROOM ? await deletedMessage(db, id).catch(() => null) : null;
    const done = await guestDelete(db, g, id);
    live(c, async () => message);
    return c.json(done, 200, noStore);
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "post",
    path: "/{link_id}/approval",
    summary: "Approve, request changes or reject, as the link's requested reviewer (open)",
    request: { params: guestParam, body: jsonBody(guestDecisionBody) },
    responses: { 200: jsonContent(guestApprovalOut), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const g = await guestOf(c, c.req.valid("param").link_id);
    const decided = await guestDecide(db, g, c.req.valid("json"));
    live(c, approvalMessage(db, g.assetId, g.version));
    return c.json(decided, 200, noStore);
  },
);

app.openapi(
  createRoute({
    ...open,
    method: "post",
    path: "/{link_id}/live-ticket",
    summary:
      "A short-lived ticket to the asset's live review room for this link's guest: its version's comments without internal ones (open)",
    request: { params: guestParam },
    responses: { 200: jsonContent(guestLiveTicketOut), ...errors },
  }),
  async (c) => c.json(await guestLiveTicket(c.env, await guestOf(c, c.req.valid("param").link_id)), 200, noStore),
);

export default app;
