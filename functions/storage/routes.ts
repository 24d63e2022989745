import { createRoute, z } from "@hono/zod-openapi";
import { idParam } from "../assets/schemas";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, jsonContent } from "../lib/openapi";
import { createStorageBody, forEntity, setForEntityBody, storage, storageBrief, updateStorageBody, usage } from "./schemas";
import { createStorage, listStorages, setAssetStorage, storageForEntity, storageUsage, updateStorage } from "./service";

/** /api/storage (docs/decisions/008-storages.md). Managing storages is for admins; reading the choice is not. */
const app = createApp();
const tags = ["storage"];
const errors = errorAnswers({ 403: "Admins only", 404: "Not found" });

app.openapi(
  createRoute({
    method: "post",
    path: "/create",
    tags,
    summary: "Add a storage (R2 binding or S3-compatible)",
    request: { body: jsonBody(createStorageBody) },
    responses: { 200: jsonContent(storage), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await createStorage(getDb(c.env), c.env, c.get("auth"), c.req.valid("json")), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/list",
    tags,
    summary: "Storages: admins get the setup (never credentials), others ids and names only",
    responses: { 200: jsonContent(z.array(z.union([storage, storageBrief]))), ...errors },
  }),
  async (c) => c.json(await listStorages(getDb(c.env), c.get("auth")), 200),
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/update/{id}",
    tags,
    summary: "Change a storage; credentials can be replaced or cleared, not read",
    request: { params: idParam, body: jsonBody(updateStorageBody) },
    responses: { 200: jsonContent(storage), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await updateStorage(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/usage",
    tags,
    summary: "Bytes and object counts per storage",
    responses: { 200: jsonContent(z.array(usage)), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await storageUsage(getDb(c.env)), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/for-entity/{id}",
    tags,
    summary: "The storage an asset, group or user puts bytes in, and why",
    request: { params: idParam },
    responses: { 200: jsonContent(forEntity), ...errors },
  }),
  async (c) => c.json(await storageForEntity(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/for-entity/{id}",
    tags,
    summary: "Set (or clear) an asset's own storage",
    request: { params: idParam, body: jsonBody(setForEntityBody) },
    responses: { 200: jsonContent(forEntity), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    await setAssetStorage(db, c.get("auth"), id, c.req.valid("json").storage_id);
    return c.json(await storageForEntity(db, c.get("auth"), id), 200);
  },
);

export default app;
