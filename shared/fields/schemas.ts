import { z } from "@hono/zod-openapi";
import { entityId } from "../groups/schemas";

/** Field templates, values and their queries: shared by the API validator and the front end (no server imports). */

export const fieldTypes = ["text", "number", "date", "time", "asset", "region", "struct", "group", "user", "bool"] as const;
export type FieldType = (typeof fieldTypes)[number];

/** Entities a value may be attached to: those the permission engine judges (read to see, update to change). */
export const valueEntityTypes = ["asset", "group"] as const;

const count = (max: number) => z.number({ error: "должно быть числом" }).int("должно быть целым").min(1, "не меньше 1").max(max);
const finite = z.number({ error: "должно быть числом" }).refine(Number.isFinite, "должно быть конечным числом");

/** field_setup per field_type: the discriminant is field_type itself, so a body carries each once. */
const setups = {
  text: z.strictObject({
    multiline: z.boolean().default(false),
    max_length: count(100_000).optional(),
    list_id: entityId.optional().openapi({ description: "choices come from this list (its records' rec_data)" }),
    multiple: z.boolean().default(false),
  }),
  number: z
    .strictObject({
      min: finite.optional(),
      max: finite.optional(),
      step: finite.positive("должно быть больше 0").optional(),
      unit: z.string().max(50).optional(),
    })
    .refine((s) => s.min === undefined || s.max === undefined || s.min <= s.max, "min больше max"),
  date: z.strictObject({ with_time: z.boolean().default(false) }),
  time: z.strictObject({
    kind: z.enum(["duration", "time_of_day"], { error: "должен быть duration или time_of_day" }).default("duration"),
  }),
  asset: z.strictObject({ multiple: z.boolean().default(false) }),
  group: z.strictObject({ multiple: z.boolean().default(false) }),
  user: z.strictObject({ multiple: z.boolean().default(false) }),
  region: z.strictObject({}),
  struct: z.strictObject({
    fields: z.array(entityId).min(1, "нужно хотя бы одно подполе").max(50, "не больше 50 подполей"),
  }),
  bool: z.strictObject({}),
} satisfies Record<FieldType, z.ZodType>;

export type FieldSetups = { [K in FieldType]: z.infer<(typeof setups)[K]> };

const templateCommon = {
  field_def_name: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(255, "не длиннее 255 символов"),
  field_priority: z.number({ error: "должно быть числом" }).int("должно быть целым").default(0),
  field_def_extsys: z.string().max(255).nullable().optional(),
  field_def_extsys_key: z.string().max(255).nullable().optional(),
};

/** One variant of the template body; a missing field_setup is the type's defaults. */
const templateOf = <T extends FieldType>(t: T) =>
  z.object({ ...templateCommon, field_type: z.literal(t), field_setup: z.preprocess((v) => v ?? {}, setups[t]) });

/** A template body: field_setup is typed by field_type (a discriminated union over the ten types). */
export const templateBody = z
  .discriminatedUnion(
    "field_type",
    [
      templateOf("text"),
      templateOf("number"),
      templateOf("date"),
      templateOf("time"),
      templateOf("asset"),
      templateOf("region"),
      templateOf("struct"),
      templateOf("group"),
      templateOf("user"),
      templateOf("bool"),
    ],
    { error: `должен быть одним из ${fieldTypes.join(", ")}` },
  )
  .openapi("FieldTemplateBody");
export type TemplateBody = z.infer<typeof templateBody>;

/** PATCH: any of the common fields; field_type and field_setup come together (the setup is checked against the type). */
export const templatePatch = z
  .object({
    field_def_name: templateCommon.field_def_name.optional(),
    field_priority: templateCommon.field_priority.optional(),
    field_def_extsys: templateCommon.field_def_extsys,
    field_def_extsys_key: templateCommon.field_def_extsys_key,
    field_type: z.enum(fieldTypes, { error: `должен быть одним из ${fieldTypes.join(", ")}` }).optional(),
    field_setup: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "нужно хотя бы одно поле")
  .openapi("FieldTemplatePatch");
export type TemplatePatch = z.infer<typeof templatePatch>;

/** Parses a setup for a type; the zod issues name field_setup.<key>. */
export const parseSetup = (type: FieldType, setup: unknown) => (setups[type] as z.ZodType).safeParse(setup ?? {});

export const fieldTemplate = z
  .object({
    field_def_id: z.string(),
    field_def_name: z.string(),
    field_type: z.enum(fieldTypes),
    field_setup: z.record(z.string(), z.unknown()),
    field_priority: z.number().int(),
    field_def_extsys: z.string().nullable(),
    field_def_extsys_key: z.string().nullable(),
  })
  .openapi("FieldTemplate");

/** pts: null or exactly [start, end] in seconds, 0 ≤ start ≤ end. The duration check needs the version (service). */
export const pts = z
  .tuple([finite, finite], { error: "должен быть null или [начало, конец] в секундах" })
  .nullable()
  .refine((p) => p === null || p[0] >= 0, "начало не может быть меньше 0")
  .refine((p) => p === null || p[0] <= p[1], "начало не может быть позже конца")
  .openapi({ description: "null or [start, end] in seconds", example: [1, 2] });

export const valueBody = z
  .object({
    entity_id: entityId,
    entity_type: z.enum(valueEntityTypes, { error: "должен быть asset или group" }),
    def_id: entityId,
    field_data: z.unknown().refine((v) => v !== undefined, "обязательное поле"),
    pts: pts.optional(),
    asset_version: z.number({ error: "должно быть числом" }).int("должно быть целым").min(1, "нумерация с 1").nullable().optional(),
  })
  .openapi("FieldValueBody");
export type ValueBody = z.infer<typeof valueBody>;

export const valueListBody = z
  .object({
    values: z.array(valueBody).min(1, "список пуст").max(1000, "не больше 1000 за раз"),
    replace: z
      .boolean()
      .optional()
      .openapi({ description: "set rather than add: the entities' values of the same fields without a time code are replaced" }),
  })
  .openapi("FieldValueListBody");

export const valuePatch = z
  .object({ field_data: z.unknown().optional(), pts: pts.optional() })
  .refine((b) => b.field_data !== undefined || b.pts !== undefined, "нужно хотя бы одно поле")
  .openapi("FieldValuePatch");

export const fieldValue = z
  .object({
    field_id: z.string(),
    entity_id: z.string(),
    entity_type: z.enum(valueEntityTypes),
    asset_version: z.number().int().nullable(),
    pts: z.tuple([z.number(), z.number()]).nullable(),
    field_data: z.unknown(),
    def_id: z.string(),
  })
  .openapi("FieldValue");

const optNumber = z.coerce.number({ error: "должно быть числом" }).refine(Number.isFinite, "должно быть числом").optional();

export const forEntityQuery = z.object({
  entity_type: z.enum(valueEntityTypes, { error: "должен быть asset или group" }).optional(),
  version: z.coerce.number({ error: "должно быть числом" }).int("должно быть целым").min(1, "нумерация с 1").optional(),
  pts_from: optNumber,
  pts_to: optNumber,
  defs: z
    .string()
    .optional()
    .transform((s, ctx) => {
      const ids = (s ?? "").split(",").filter(Boolean);
      const bad = ids.find((id) => !entityId.safeParse(id).success);
      if (bad !== undefined) ctx.addIssue({ code: "custom", message: `«${bad}» — не идентификатор шаблона` });
      return ids.map((id) => id.toLowerCase());
    })
    .openapi({ description: "comma-separated template ids", type: "string" }),
});

export const searchOps = ["eq", "ne", "lt", "lte", "gt", "gte", "contains", "prefix", "in", "exists"] as const;
export type SearchOp = (typeof searchOps)[number];

const scalar = z.union([z.string().max(10_000), finite, z.boolean()]);
const fieldFilterShape = {
  def_id: entityId,
  op: z.enum(searchOps, { error: `должен быть одним из ${searchOps.join(", ")}` }),
  value: z.union([scalar, z.array(scalar).min(1, "список пуст").max(100, "не больше 100 значений")]).optional(),
};
/** A value of `in` is a list, of every other op but exists one value. */
const checkFilterValue = (b: { op: SearchOp; value?: unknown }, ctx: z.RefinementCtx) => {
  if (b.op === "exists") return;
  if (b.value === undefined) ctx.addIssue({ code: "custom", path: ["value"], message: "обязательное поле" });
  else if (b.op === "in" ? !Array.isArray(b.value) : Array.isArray(b.value))
    ctx.addIssue({ code: "custom", path: ["value"], message: b.op === "in" ? "должен быть списком" : "должен быть одним значением" });
};

/** A condition on the values of one template (entities-by-field, and the search's `filters.fields`). */
export const fieldFilter = z.object(fieldFilterShape).superRefine(checkFilterValue);
export type FieldFilter = z.infer<typeof fieldFilter>;

export const entitiesByFieldBody = z
  .object({
    ...fieldFilterShape,
    skip: z.number().int().min(0).default(0),
    take: z.number().int().min(1).max(1000).default(50),
  })
  .superRefine(checkFilterValue)
  .openapi("EntitiesByFieldBody");
export type EntitiesByFieldBody = z.infer<typeof entitiesByFieldBody>;

export const entitiesByField = z
  .object({
    total: z.number().int(),
    items: z.array(z.object({ entity_id: z.string(), entity_type: z.enum(valueEntityTypes), name: z.string() })),
  })
  .openapi("EntitiesByField");

export const fieldIdOut = z.object({ field_id: z.string() }).openapi("FieldId");
export const fieldIdsOut = z.object({ field_ids: z.array(z.string()) }).openapi("FieldIds");
export const templateIdOut = z.object({ field_def_id: z.string() }).openapi("FieldTemplateId");
export const forceQuery = z.object({ force: z.enum(["true", "false"]).optional() });
export const ok = z.object({ ok: z.literal(true) }).openapi("FieldsOk");

/** CSV import (decision 039): the file's text; `dry_run` (the default) only reports what would change. */
export const csvImportBody = z
  .object({
    csv: z.string({ error: "обязательное поле" }).min(1, "файл пуст").max(5_000_000, "не больше 5 МБ"),
    dry_run: z.boolean().default(true),
  })
  .openapi("FieldsCsvImportBody");

export const csvImportReport = z
  .object({
    rows: z.array(
      z.object({
        row: z.number().int(),
        asset_id: z.string(),
        name: z.string(),
        changes: z.array(z.object({ field: z.string(), def_id: z.string(), old: z.string(), new: z.string() })),
        errors: z.array(z.string()),
      }),
    ),
    changes: z.number().int().openapi({ description: "valid changes found" }),
    applied: z.number().int().openapi({ description: "values written (0 on a dry run)" }),
  })
  .openapi("FieldsCsvImportReport");
