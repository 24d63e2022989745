import type { FieldTemplate } from "../../db/schema";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/fields/contract";
import type { FieldType } from "../../shared/fields/schemas";
import { createTemplate, deleteTemplate, listTemplates, templateById, updateTemplate } from "./template-service";

/** /api/fields/templates: everyone reads them (forms are built from them), admins change them (./template-service.ts). */
const app = createApp();

export const templateOut = (t: FieldTemplate) => ({
  field_def_id: t.fieldDefId,
  field_def_name: t.name,
  field_type: t.fieldType as FieldType,
  field_setup: t.setup,
  field_priority: t.priority,
  field_def_extsys: t.extsys,
  field_def_extsys_key: t.extsysKey,
});

app.openapi(r.listTemplates, async (c) => c.json((await listTemplates(getDb(c.env))).map(templateOut), 200));

app.openapi(r.createTemplate, async (c) => {
  const auth = c.get("auth");
  requireAdmin(auth);
  return c.json({ field_def_id: await createTemplate(getDb(c.env), auth.userId, c.req.valid("json")) }, 200);
});

app.openapi(r.getTemplate, async (c) => c.json(templateOut(await templateById(getDb(c.env), c.req.valid("param").id)), 200));

app.openapi(r.changeTemplate, async (c) => {
  const auth = c.get("auth");
  requireAdmin(auth);
  const next = await updateTemplate(getDb(c.env), auth.userId, c.req.valid("param").id, c.req.valid("json"));
  return c.json(templateOut(next), 200);
});

app.openapi(r.deleteTemplate, async (c) => {
  const auth = c.get("auth");
  requireAdmin(auth);
  await deleteTemplate(getDb(c.env), auth.userId, c.req.valid("param").id, c.req.valid("query").force === "true");
  return c.json({ ok: true as const }, 200);
});

export default app;
