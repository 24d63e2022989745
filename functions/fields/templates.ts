import { createRoute, z } from "@hono/zod-openapi";
import type { FieldTemplate } from "../../db/schema";
import { idParam } from "../groups/schemas";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { fieldTemplate, forceQuery, ok, templateBody, templateIdOut, templatePatch, type FieldType } from "./schemas";
import { createTemplate, deleteTemplate, listTemplates, templateById, updateTemplate } from "./template-service";

/** /api/fields/templates: everyone reads them (forms are built from them), admins change them (./template-service.ts). */
const app = createApp();
const tags = ["fields"];
const errorOf = (description: string) => ({ description, content: errorResponses[400].content });
const errors = { ...errorResponses, 403: errorOf("Admins only"), 404: errorOf("Not found"), 409: errorOf("In use") };

export const templateOut = (t: FieldTemplate) => ({
  field_def_id: t.fieldDefId,
  field_def_name: t.name,
  field_type: t.fieldType as FieldType,
  field_setup: t.setup,
  field_priority: t.priority,
  field_def_extsys: t.extsys,
  field_def_extsys_key: t.extsysKey,
});

app.openapi(
  createRoute({
    method: "get",
    path: "/templates",
    tags,
    summary: "All field templates",
    responses: { 200: jsonContent(z.array(fieldTemplate)), ...errors },
  }),
  async (c) => c.json((await listTemplates(getDb(c.env))).map(templateOut), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/templates",
    tags,
    summary: "Create a field template (admins)",
    request: { body: jsonBody(templateBody) },
    responses: { 200: jsonContent(templateIdOut), ...errors },
  }),
  async (c) => {
    const auth = c.get("auth");
    requireAdmin(auth);
    return c.json({ field_def_id: await createTemplate(getDb(c.env), auth.userId, c.req.valid("json")) }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/templates/{id}",
    tags,
    summary: "One field template",
    request: { params: idParam },
    responses: { 200: jsonContent(fieldTemplate), ...errors },
  }),
  async (c) => c.json(templateOut(await templateById(getDb(c.env), c.req.valid("param").id)), 200),
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/templates/{id}",
    tags,
    summary: "Change a field template (admins); the type changes only while it has no values",
    request: { params: idParam, body: jsonBody(templatePatch) },
    responses: { 200: jsonContent(fieldTemplate), ...errors },
  }),
  async (c) => {
    const auth = c.get("auth");
    requireAdmin(auth);
    const next = await updateTemplate(getDb(c.env), auth.userId, c.req.valid("param").id, c.req.valid("json"));
    return c.json(templateOut(next), 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/templates/{id}",
    tags,
    summary: "Delete a field template (admins); 409 while it has values, unless force=true deletes them too",
    request: { params: idParam, query: forceQuery },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    const auth = c.get("auth");
    requireAdmin(auth);
    await deleteTemplate(getDb(c.env), auth.userId, c.req.valid("param").id, c.req.valid("query").force === "true");
    return c.json({ ok: true as const }, 200);
  },
);

export default app;
