import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { eventInsert } from "../lib/events";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { uuid } from "../assets/schemas";
import { abortUpload, completeUpload } from "./complete";
import { partParams, partReport, partsBody, partTarget, startBody, upload, uploadIdParam, uploadServer } from "./schemas";
import { uploadServers } from "./servers";
import { activeUploads, loadUpload, partTargets, reportPart, startUpload, uploadStatus } from "./service";

/** The upload server's bearer routes (docs/decisions/007-uploads.md); part PUTs and ping are in ./open-routes.ts. */
const app = createApp();
const tags = ["uploads"];
const errors = { ...errorResponses, 404: errorResponses[400], 409: errorResponses[400] };

app.openapi(
  createRoute({
    method: "get",
    path: "/uldl-list",
    tags,
    summary: "Upload/download servers",
    responses: { 200: jsonContent(z.array(uploadServer)) },
  }),
  (c) => c.json(uploadServers(c.env, c.req.url), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/uldl-status",
    tags,
    summary: "Record a client's ping to an upload server",
    request: { body: jsonBody(z.object({ id: z.string().min(1).max(100), ping: z.number().min(0).max(600_000) }).openapi("UldlStatus")) },
    responses: { 200: jsonContent(z.object({ ok: z.literal(true) })), ...errorResponses },
  }),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    await eventInsert(db, { kind: "uldl.status", userId: c.get("auth").userId, entityType: "uldl", entityId: body.id, data: body });
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/ul",
    tags,
    summary: "The caller's unfinished uploads (resume after a closed tab)",
    request: { query: z.object({ asset_id: uuid.optional() }) },
    responses: { 200: jsonContent(z.array(upload)), ...errorResponses },
  }),
  async (c) => c.json(await activeUploads(getDb(c.env), c.get("auth"), c.req.valid("query").asset_id), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/ul/start",
    tags,
    summary: "Start a multipart upload: returns its id, part size and count",
    request: { body: jsonBody(startBody) },
    responses: { 200: jsonContent(upload), ...errors },
  }),
  async (c) => c.json(await startUpload(getDb(c.env), c.env, c.get("auth"), c.req.valid("json")), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/ul/{id}",
    tags,
    summary: "Upload state: parts the server holds and parts missing",
    request: { params: uploadIdParam },
    responses: { 200: jsonContent(upload), ...errors },
  }),
  async (c) => c.json(await uploadStatus(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/ul/{id}/targets",
    tags,
    summary: "Where to PUT the given parts (presigned bucket URLs or signed Worker URLs)",
    request: { params: uploadIdParam, body: jsonBody(partsBody) },
    responses: { 200: jsonContent(z.array(partTarget)), ...errors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await partTargets(getDb(c.env), c.env, c.get("auth"), id, c.req.valid("json").parts, new URL(c.req.url).origin), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/ul/{id}/parts/{n}",
    tags,
    summary: "Report a part stored (its ETag from the PUT response)",
    request: { params: partParams, body: jsonBody(partReport) },
    responses: { 200: jsonContent(z.object({ part: z.number(), size: z.number(), etag: z.string() })), ...errors },
  }),
  async (c) => {
    const { id, n } = c.req.valid("param");
    return c.json(await reportPart(getDb(c.env), c.get("auth"), id, n, c.req.valid("json").etag), 200);
  },
);

const completed = z.object({
  asset_id: z.string(),
  version: z.number(),
  variant_id: z.string(),
  variant_type: z.string(),
  content_size: z.number(),
  etag: z.string(),
});
app.openapi(
  createRoute({
    method: "post",
    path: "/ul/{id}/complete",
    tags,
    summary: "Assemble the parts; the variant becomes available",
    request: { params: uploadIdParam },
    responses: { 200: jsonContent(completed.openapi("UploadCompleted")), ...errors },
  }),
  async (c) => c.json(await completeUpload(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/ul/{id}",
    tags,
    summary: "Abort; a new asset's only upload takes the asset with it",
    request: { params: uploadIdParam },
    responses: {
      200: jsonContent(z.object({ upload_id: z.string(), state: z.literal("aborted"), asset_deleted: z.boolean() })),
      ...errors,
    },
  }),
  async (c) => {
    const db = getDb(c.env);
    const auth = c.get("auth");
    return c.json(await abortUpload(db, c.env, auth, await loadUpload(db, auth, c.req.valid("param").id)), 200);
  },
);

export default app;
