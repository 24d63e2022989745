import { getDb } from "../lib/db";
import { eventInsert } from "../lib/events";
import { createApp } from "../lib/openapi";
import { abortUpload, completeUpload } from "./complete";
import * as r from "../../shared/uploads/contract";
import { uploadServers } from "./servers";
import { activeUploads, loadUpload, partTargets, reportPart, startUpload, uploadStatus } from "./service";

/** The upload server's bearer routes (docs/decisions/007-uploads.md; ./contract.ts); part PUTs and ping are in ./open-routes.ts. */
const app = createApp();

app.openapi(r.uploadServers, (c) => c.json(uploadServers(c.env, c.req.url), 200));

app.openapi(r.reportPing, async (c) => {
  const db = getDb(c.env);
  const body = c.req.valid("json");
  await eventInsert(db, { kind: "uldl.status", userId: c.get("auth").userId, entityType: "uldl", entityId: body.id, data: body });
  return c.json({ ok: true as const }, 200);
});

app.openapi(r.activeUploads, async (c) => c.json(await activeUploads(getDb(c.env), c.get("auth"), c.req.valid("query").asset_id), 200));

app.openapi(r.startUpload, async (c) => c.json(await startUpload(getDb(c.env), c.env, c.get("auth"), c.req.valid("json")), 200));

app.openapi(r.uploadStatus, async (c) => c.json(await uploadStatus(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.partTargets, async (c) => {
  const { id } = c.req.valid("param");
  return c.json(await partTargets(getDb(c.env), c.env, c.get("auth"), id, c.req.valid("json").parts, new URL(c.req.url).origin), 200);
});

app.openapi(r.reportPart, async (c) => {
  const { id, n } = c.req.valid("param");
  return c.json(await reportPart(getDb(c.env), c.get("auth"), id, n, c.req.valid("json").etag), 200);
});

app.openapi(r.completeUpload, async (c) => c.json(await completeUpload(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.abortUpload, async (c) => {
  const db = getDb(c.env);
  const auth = c.get("auth");
  return c.json(await abortUpload(db, c.env, auth, await loadUpload(db, auth, c.req.valid("param").id)), 200);
});

export default app;
