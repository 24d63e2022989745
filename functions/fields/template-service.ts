import { asc, eq, inArray, sql } from "drizzle-orm";
import { fieldTemplates, fieldValues, lists, type FieldTemplate } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { eventInsert, insertWithEvent } from "../lib/events";
import { newId } from "../lib/ids";
import { idList, literal } from "../lib/sql";
import { describeZodError, invalidFields } from "../lib/validation";
import { fieldTypes, parseSetup, type FieldType, type TemplateBody, type TemplatePatch } from "../../shared/fields/schemas";
import { valuesOfTemplate } from "./values";

/** Field templates (routes in ./templates.ts): everyone reads them, admins change them; each change writes its event. */

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

export const listTemplates = (db: Db) => db.select().from(fieldTemplates).orderBy(asc(fieldTemplates.priority), asc(fieldTemplates.name));

export async function templateById(db: Db, id: string) {
  const row = await db.select().from(fieldTemplates).where(eq(fieldTemplates.fieldDefId, id)).get();
  if (!row) throw new ApiError("not_found", "Шаблон поля не найден");
  return row;
}

/** A new template, its references checked; answers its id. */
export async function createTemplate(db: Db, userId: string, b: TemplateBody): Promise<string> {
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
  await insertWithEvent(db, fieldTemplates, row, {
    kind: "field.template-create",
    userId,
    entityType: "field_template",
    entityId: row.fieldDefId,
    data: { name: row.name, type: row.fieldType },
  });
  return row.fieldDefId;
}

/** The setup a type takes (the new one, or the current one when only the setup changes), or a 400 naming its fields. */
function setupFor(type: FieldType, setup: unknown): Record<string, unknown> {
  const parsed = parseSetup(type, setup);
  if (!parsed.success)
    throw invalidFields(
      describeZodError(parsed.error).map((d) => ({ ...d, field: `field_setup.${d.field}`.replace(/\.\(тело запроса\)$/, "") })),
    );
  return parsed.data as Record<string, unknown>;
}

/** Changes a template; its type changes only while it has no values (409 otherwise). Answers the template as it is now. */
export async function updateTemplate(db: Db, userId: string, id: string, b: TemplatePatch): Promise<FieldTemplate> {
  const current = await templateById(db, id);
  const type = (b.field_type ?? current.fieldType) as FieldType;
  if (!fieldTypes.includes(type)) throw invalidFields([{ field: "field_type", message: "неизвестный тип" }]);
  const typeChanged = type !== current.fieldType;
  let setup = current.setup;
  if (b.field_setup !== undefined || typeChanged) {
    setup = setupFor(type, b.field_setup);
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
    eventInsert(db, { kind: "field.template-update", userId, entityType: "field_template", entityId: id, data: b }),
  ]);
  return next;
}

/**
 * Deletes a template: 409 while a struct holds it, and while it has values unless `force`, which deletes them
 * with it.
 */
export async function deleteTemplate(db: Db, userId: string, id: string, force: boolean): Promise<void> {
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
      userId,
      entityType: "field_template",
      entityId: id,
      data: { name: current.name, values_deleted: count },
    }),
  ]);
}
