import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { ApiError } from "../lib/errors";
import { createApp, errorResponses, jsonContent } from "../lib/openapi";
import { notImplemented, requireWrite, wopiCaller } from "./caller";
import { lock, lockHeader, refreshLock, relock, unlock, currentLock } from "./locks";
import { putRelative, renameFile } from "./relative";
import * as r from "../../shared/wopi/contract";
import { accessQuery, checkFileInfo as fileInfoSchema, fileParam } from "../../shared/wopi/schemas";
import { appOrigin, checkFileInfo, getFile, issueToken, putFile, putUserInfo } from "./service";

/**
 * /api/wopi: the WOPI host (docs/decisions/046-wopi.md). The token route takes the bearer; the file routes
 * are open to the middleware (`security: []`) and authenticate by ?access_token= (./caller.ts).
 */
const app = createApp();
const tags = ["office editing (WOPI)"];
const err = (description: string) => ({ description, content: errorResponses[400].content });
const fileErrors = {
  400: errorResponses[400],
  401: err("Forged, expired or foreign access token, a failed proof, or a token not good for writing"),
  404: err("Unknown file, or one the token's user can no longer read"),
  409: err("Lock mismatch: the current lock in X-WOPI-Lock (empty when none), the reason in X-WOPI-LockFailureReason"),
};
const empty = { description: "done; lock answers carry X-WOPI-Lock / X-WOPI-ItemVersion" };

app.openapi(r.wopiToken, async (c) =>
  c.json(await issueToken(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, appOrigin(c.env, c.req.raw)), 200, {
    "Cache-Control": "no-store",
  }),
);

const caller = (c: Context<AppEnv>, id: string, q: { access_token?: string }) => wopiCaller(c.env, c.req.raw, id, q.access_token);

app.openapi(
  createRoute({
    method: "get",
    path: "/wopi/files/{id}",
    security: [],
    tags,
    summary: "CheckFileInfo (access_token)",
    request: { params: fileParam, query: accessQuery },
    responses: { 200: jsonContent(fileInfoSchema), ...fileErrors },
  }),
  async (c) => {
    const w = await caller(c, c.req.valid("param").id, c.req.valid("query"));
    return c.json(await checkFileInfo(w, appOrigin(c.env, c.req.raw)), 200, { "Cache-Control": "no-store" });
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/wopi/files/{id}/contents",
    security: [],
    tags,
    summary: "GetFile (access_token): the bytes, X-WOPI-ItemVersion",
    request: { params: fileParam, query: accessQuery },
    responses: { 200: { description: "the bytes" }, 403: err("No download right on the original"), 412: empty, ...fileErrors },
  }),
  async (c) => {
    const w = await caller(c, c.req.valid("param").id, c.req.valid("query"));
    return (await getFile(w, c.env, c.req.raw)) as never;
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/wopi/files/{id}/contents",
    security: [],
    tags,
    summary: "PutFile (X-WOPI-Override: PUT, access_token): a new version; needs the lock, or an empty unlocked file",
    request: { params: fileParam, query: accessQuery },
    responses: { 200: empty, ...fileErrors },
  }),
  async (c) => {
    const w = await caller(c, c.req.valid("param").id, c.req.valid("query"));
    if (c.req.header("X-WOPI-Override") !== "PUT") throw new ApiError("bad_request", "Ожидается X-WOPI-Override: PUT");
    const version = await putFile(w, c.env, c.req.raw);
    return c.body(null, 200, { "X-WOPI-ItemVersion": version });
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/wopi/files/{id}",
    security: [],
    tags,
    summary:
      "X-WOPI-Override LOCK (with X-WOPI-OldLock: unlock and relock), GET_LOCK, REFRESH_LOCK, UNLOCK, PUT_RELATIVE, RENAME_FILE, PUT_USER_INFO (access_token)",
    request: { params: fileParam, query: accessQuery },
    responses: { 200: { description: "done (JSON for PUT_RELATIVE and RENAME_FILE)" }, 501: empty, ...fileErrors },
  }),
  async (c) => {
    const w = await caller(c, c.req.valid("param").id, c.req.valid("query"));
    const override = c.req.header("X-WOPI-Override") ?? "";
    const h = (name: string) => c.req.header(name);
    const origin = appOrigin(c.env, c.req.raw);
    switch (override) {
      case "GET_LOCK": {
        const cur = await currentLock(w.db, w.fileId);
        return c.body(null, 200, { "X-WOPI-Lock": cur?.lockId ?? "" });
      }
      case "PUT_USER_INFO":
        await putUserInfo(w, await c.req.text());
        return c.body(null, 200);
      case "PUT_RELATIVE":
        return (await putRelative(w, c.env, c.req.raw, origin)) as never;
      case "RENAME_FILE":
        return c.json(await renameFile(w, c.req.raw), 200);
    }
    if (!["LOCK", "REFRESH_LOCK", "UNLOCK"].includes(override))
      return notImplemented(`X-WOPI-Override ${override} не поддерживается`) as never;
    requireWrite(w);
    const id = lockHeader(h("X-WOPI-Lock"));
    const old = h("X-WOPI-OldLock");
    if (override === "LOCK" && old !== undefined) await relock(w.db, w.fileId, id, lockHeader(old, "X-WOPI-OldLock"), w.user.userId);
    else if (override === "LOCK") await lock(w.db, w.fileId, id, w.user.userId);
    else if (override === "REFRESH_LOCK") await refreshLock(w.db, w.fileId, id, w.user.userId);
    else await unlock(w.db, w.fileId, id);
    return c.body(null, 200);
  },
);

export default app;
