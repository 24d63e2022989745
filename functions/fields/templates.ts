import { createRoute, z } from "@hono/zod-openapi";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { fieldTemplates, fieldValues, lists, type FieldTemplate } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { idParam } from "../groups/schemas";
import { requireAdmin } from "../lib/auth";
import { getDb, type Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { idList, literal } from "../lib/sql";
import { describeZodError } from "../lib/validation";
import {
  fieldTemplate,
  fieldTypes,
  forceQuery,
  ok,
  parseSetup,
  templateBody,
  templateIdOut,
  templatePatch,
  type FieldType,
} from "./schemas";
import { invalidFields } from "../lib/validation";
import { valuesOfTemplate } from "./values";

/** /api/fields/templates: everyone reads them (forms are built from them), admins change them. */
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

/** References inside a setup must exist: a text field's list, a struct's sub-fields (never the template itself). */
async function checkSetupRefs(db: Db, type: string, setup: Record<string, unknown>, self?: string) {
  if (type === "text" && setup.list_id) {
    const found = await db
      .select({ id: lists.listId })
      .from(lists)
      .where(eq(lists.listId, String(setup.list_id)))
      .get();
    if (!found) throw invalidFields([{ field: "field_setup.list_id", message: "нет такого списка" }]);
  }
  if (type === "struct") {
    const ids = setup.fields as string[];
    if (self && ids.includes(self))
      throw invalidFields([{ field: "field_setup.fields", message: "структура не может содержать саму себя" }]);
    const rows = await db
      .select({ id: fieldTemplates.fieldDefId })
      .from(fieldTemplates)
      .where(inArray(fieldTemplates.fieldDefId, idList(ids)));
    const missing = ids.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw invalidFields([{ field: "field_setup.fields", message: `нет таких шаблонов: ${missing.join(", ")}` }]);
  }
}

/** Structs whose sub-fields include the template: it cannot go while they hold it. */
const structsUsing = (db: Db, id: string) =>
  db
    .select({ name: fieldTemplates.name })
    .from(fieldTemplates)
    .where(
      sql`${fieldTemplates.fieldType} = 'struct' AND EXISTS (SELECT 1 FROM json_each(${fieldTemplates.setup}, '$.fields') WHERE value = ${id})`,
    );

async function templateById(db: Db, id: string) {
  const row = await db.select().from(fieldTemplates).where(eq(fieldTemplates.fieldDefId, id)).get();
  if (!row) throw new ApiError("not_found", "Шаблон поля не найден");
  return row;
}

app.openapi(
  createRoute({
    method: "get",
    path: "/templates",
    tags,
    summary: "All field templates",
    responses: { 200: jsonContent(z.array(fieldTemplate)), ...errors },
  }),
  async (c) => {
    const rows = await getDb(c.env).select().from(fieldTemplates).orderBy(asc(fieldTemplates.priority), asc(fieldTemplates.name));
    return c.json(rows.map(templateOut), 200);
  },
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
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const b = c.req.valid("json");
    const setup = b.field_setup as Record<string, unknown>;
    await checkSetupRefs(db, b.field_type, setup);
    const now = nowSeconds();
    const row = {
      fieldDefId: newId(),
      name: b.field_def_name,
      fieldType: b.field_type,
      setup,
      priority: b.field_priority,
      extsys: b.field_def_extsys ?? null,
      extsysKey: b.field_def_extsys_key ?? null,
      ctime: now,
      mtime: now,
    };
    await db.batch([
      db.insert(fieldTemplates).values(row),
      eventInsert(db, {
        kind: "field.template-create",
        userId: c.get("auth").userId,
        entityType: "field_template",
        entityId: row.fieldDefId,
        data: { name: row.name, type: row.fieldType },
      }),
    ]);
    return c.json({ field_def_id: row.fieldDefId }, 200);
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
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    const b = c.req.valid("json");
    const current = await templateById(db, id);
    const type = (b.field_type ?? current.fieldType) as FieldType;
    if (!fieldTypes.includes(type)) throw invalidFields([{ field: "field_type", message: "неизвестный тип" }]);
    const typeChanged = type !== current.fieldType;
    let setup = current.setup;
    if (b.field_setup !== undefined || typeChanged) {
      const parsed = parseSetup(type, b.field_setup ?? {});
      if (!parsed.success)
        throw invalidFields(
          describeZodError(parsed.error).map((d) => ({ ...d, field: `field_setup.${d.field}`.replace(/\.\(тело запроса\)$/, "") })),
        );
      setup = parsed.data as Record<string, unknown>;
      await checkSetupRefs(db, type, setup, id);
    }
    if (typeChanged && (await valuesOfTemplate(db, id)) > 0)
      throw new ApiError("conflict", "У поля есть значения: тип нельзя сменить, пока они есть");
    const next: FieldTemplate = {
      ...current,
      name: b.field_def_name ?? current.name,
      fieldType: type,
      setup,
      priority: b.field_priority ?? current.priority,
      extsys: b.field_def_extsys === undefined ? current.extsys : b.field_def_extsys,
      extsysKey: b.field_def_extsys_key === undefined ? current.extsysKey : b.field_def_extsys_key,
      mtime: nowSeconds(),
    };
    await db.batch([
      db.update(fieldTemplates).set(next).where(eq(fieldTemplates.fieldDefId, id)),
      eventInsert(db, { kind: "field.template-update", userId: c.get("auth").userId, entityType: "field_template", entityId: id, data: b }),
    ]);
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
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    const force = c.req.valid("query").force === "true";
    const current = await templateById(db, id);
    const structs = await structsUsing(db, id);
    if (structs.length) throw new ApiError("conflict", `Поле входит в структуры: ${structs.map((s) => `«${s.name}»`).join(", ")}`);
    const count = await valuesOfTemplate(db, id);
    if (count > 0 && !force)
      throw new ApiError("conflict", `У поля «${current.name}» есть значения (${count}); удалить вместе с ними: force=true`);
    await db.batch([
      db.delete(fieldValues).where(eq(fieldValues.defId, id)),
      db.delete(fieldTemplates).where(eq(fieldTemplates.fieldDefId, id)),
      // Classes drop it from their form (def_fields keeps its order otherwise); literals: raw statements in a batch bind nothing.
      db.run(sql`UPDATE asset_classes SET def_fields = (SELECT json_group_array(value) FROM json_each(def_fields) WHERE value <> ${literal(id)})
        WHERE EXISTS (SELECT 1 FROM json_each(def_fields) WHERE value = ${literal(id)})`),
      eventInsert(db, {
        kind: "field.template-delete",
        userId: c.get("auth").userId,
        entityType: "field_template",
        entityId: id,
        data: { name: current.name, values_deleted: count },
      }),
    ]);
    return c.json({ ok: true as const }, 200);
  },
);

export default app;
