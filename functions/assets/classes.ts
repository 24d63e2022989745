import { createRoute, z } from "@hono/zod-openapi";
import type { AssetClass } from "../../db/schema";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { errorAnswers, createApp, jsonBody, jsonContent } from "../lib/openapi";
import { classesByIds, createClass, deleteClass, listClasses, updateClass } from "./class-service";
import { assetClass, assetClassBody, idParam, idsBody, ok } from "./schemas";

/** Asset classes: /api/asset/class (admins change them; everyone may read them; ./class-service.ts). */
const app = createApp();
const tags = ["asset classes"];
const errors = errorAnswers({ 403: "Admins only", 404: "Not found", 409: "Name taken" });
const out = (c: AssetClass) => ({ id: c.classId, name: c.name, def_fields: c.defFields });

app.openapi(
  createRoute({
    method: "get",
    path: "/class",
    tags,
    summary: "All asset classes",
    responses: { 200: jsonContent(z.array(assetClass)), ...errors },
  }),
  async (c) => c.json((await listClasses(getDb(c.env))).map(out), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/class",
    tags,
    summary: "Create an asset class",
    request: { body: jsonBody(assetClassBody) },
    responses: { 200: jsonContent(assetClass), ...errors },
  }),
  async (c) => {
    const auth = c.get("auth");
    requireAdmin(auth);
    return c.json(out(await createClass(getDb(c.env), auth.userId, c.req.valid("json"))), 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/class/{id}",
    tags,
    summary: "Change an asset class",
    request: { params: idParam, body: jsonBody(assetClassBody.partial()) },
    responses: { 200: jsonContent(assetClass), ...errors },
  }),
  async (c) => {
    const auth = c.get("auth");
    requireAdmin(auth);
    return c.json(out(await updateClass(getDb(c.env), auth.userId, c.req.valid("param").id, c.req.valid("json"))), 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/class/{id}",
    tags,
    summary: "Delete an asset class (its assets lose the class)",
    request: { params: idParam },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    const auth = c.get("auth");
    requireAdmin(auth);
    await deleteClass(getDb(c.env), auth.userId, c.req.valid("param").id);
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/class-by-ids",
    tags,
    summary: "Asset classes by id",
    request: { body: jsonBody(idsBody) },
    responses: { 200: jsonContent(z.array(assetClass)), ...errors },
  }),
  async (c) => c.json((await classesByIds(getDb(c.env), c.req.valid("json").ids)).map(out), 200),
);

export default app;
