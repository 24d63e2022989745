import { z } from "@hono/zod-openapi";
import { uuid } from "../assets/schemas";
import { defineRoute, errorResponses, jsonBody, jsonContent, routeDefiner } from "../lib/route-contract";
import { partParams, partReport, partsBody, partTarget, startBody, upload, uploadIdParam, uploadServer } from "./schemas";

/**
 * The upload server's bearer routes (docs/decisions/007-uploads.md), served by ./routes.ts and called through call()
 * (docs/decisions/070-route-contracts.md); the part PUTs and ping are in ./open-routes.ts. The upload worker
 * (app/lib/upload-protocol.ts) sends these to the chosen upload server with its own fetch.
 */
const tags = ["uploads"];
const route = routeDefiner(tags, errorResponses);
const uploadRoute = routeDefiner(tags, { ...errorResponses, 404: errorResponses[400], 409: errorResponses[400] });

export const uploadServers = defineRoute({
  method: "get",
  path: "/uldl-list",
  tags,
  summary: "Upload/download servers",
  responses: { 200: jsonContent(z.array(uploadServer)) },
});
export const reportPing = route(
  "post",
  "/uldl-status",
  "Record a client's ping to an upload server",
  { body: jsonBody(z.object({ id: z.string().min(1).max(100), ping: z.number().min(0).max(600_000) }).openapi("UldlStatus")) },
  z.object({ ok: z.literal(true) }),
);
export const activeUploads = route(
  "get",
  "/ul",
  "The caller's unfinished uploads (resume after a closed tab)",
  { query: z.object({ asset_id: uuid.optional() }) },
  z.array(upload),
);
export const startUpload = uploadRoute(
  "post",
  "/ul/start",
  "Start a multipart upload: returns its id, part size and count",
  { body: jsonBody(startBody) },
  upload,
);
export const uploadStatus = uploadRoute(
  "get",
  "/ul/{id}",
  "Upload state: parts the server holds and parts missing",
  { params: uploadIdParam },
  upload,
);
export const partTargets = uploadRoute(
  "post",
  "/ul/{id}/targets",
  "Where to PUT the given parts (presigned bucket URLs or signed Worker URLs)",
  { params: uploadIdParam, body: jsonBody(partsBody) },
  z.array(partTarget),
);
export const reportPart = uploadRoute(
  "post",
  "/ul/{id}/parts/{n}",
  "Report a part stored (its ETag from the PUT response)",
  { params: partParams, body: jsonBody(partReport) },
  z.object({ part: z.number(), size: z.number(), etag: z.string() }),
);
export const completeUpload = uploadRoute(
  "post",
  "/ul/{id}/complete",
  "Assemble the parts; the variant becomes available",
  { params: uploadIdParam },
  z
    .object({
      asset_id: z.string(),
      version: z.number(),
      variant_id: z.string(),
      variant_type: z.string(),
      content_size: z.number(),
      etag: z.string(),
    })
    .openapi("UploadCompleted"),
);
export const abortUpload = uploadRoute(
  "delete",
  "/ul/{id}",
  "Abort; a new asset's only upload takes the asset with it",
  { params: uploadIdParam },
  z.object({ upload_id: z.string(), state: z.literal("aborted"), asset_deleted: z.boolean() }),
);
