import { createRoute, z } from "@hono/zod-openapi";
import { idParam } from "../groups/schemas";
import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { exportCsv, importCsv } from "./csv";
import {
  csvImportBody,
  csvImportReport,
  entitiesByField,
  entitiesByFieldBody,
  fieldIdOut,
  fieldIdsOut,
  fieldValue,
  forEntityQuery,
  ok,
  valueBody,
  valueListBody,
  valuePatch,
} from "./schemas";
import { entitiesByField as searchEntities } from "./search";
import templateRoutes from "./templates";
import { changeValue, createValues, deleteValue, valuesForEntity } from "./values";

/** /api/fields: templates, and the values entities hold (docs/decisions/031-custom-fields.md). */
const app = createApp();
const tags = ["fields"];
const errorOf = (description: string) => ({ description, content: errorResponses[400].content });
const errors = { ...errorResponses, 403: errorOf("Lacks update on the entity"), 404: errorOf("Not found or not readable") };

app.route("/", templateRoutes);

app.openapi(
  createRoute({
    method: "get",
    path: "/export-csv/{id}",
    tags,
    summary: "The field values of a group's assets as CSV (read on the group; its assets the caller can read)",
    request: { params: idParam },
    responses: { 200: { description: "CSV, UTF-8 with a byte order mark", content: { "text/csv": { schema: z.string() } } }, ...errors },
  }),
  async (c) => {
    const csv = await exportCsv(getDb(c.env), c.get("auth"), c.req.valid("param").id);
    return c.body(csv, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="fields.csv"' });
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/import-csv/{id}",
    tags,
    summary: "Read an edited export back: a report per row; with dry_run false, all valid changes in one batch",
    request: { params: idParam, body: jsonBody(csvImportBody) },
    responses: { 200: jsonContent(csvImportReport), ...errors },
  }),
  async (c) => {
    const { csv, dry_run } = c.req.valid("json");
    return c.json(await importCsv(getDb(c.env), c.get("auth"), c.req.valid("param").id, csv, !dry_run), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/for-entity/{id}",
    tags,
    summary: "The values of an entity; pts_from/pts_to keep the time-coded values overlapping that range",
    request: { params: idParam, query: forEntityQuery },
    responses: { 200: jsonContent(z.array(fieldValue)), ...errors },
  }),
  async (c) => c.json(await valuesForEntity(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("query")), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/create",
    tags,
    summary: "Create a value (update on the entity)",
    request: { body: jsonBody(valueBody) },
    responses: { 200: jsonContent(fieldIdOut), ...errors },
  }),
  async (c) => {
    const [fieldId] = await createValues(getDb(c.env), c.get("auth"), [c.req.valid("json")], false);
    return c.json({ field_id: fieldId }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/create-list",
    tags,
    summary: "Create up to 1,000 values in one batch: all or nothing",
    request: { body: jsonBody(valueListBody) },
    responses: { 200: jsonContent(fieldIdsOut), ...errors },
  }),
  async (c) => {
    const { values, replace } = c.req.valid("json");
    return c.json({ field_ids: await createValues(getDb(c.env), c.get("auth"), values, true, replace) }, 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/change/{id}",
    tags,
    summary: "Change a value's field_data and/or pts",
    request: { params: idParam, body: jsonBody(valuePatch) },
    responses: { 200: jsonContent(fieldValue), ...errors },
  }),
  async (c) => c.json(await changeValue(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/delete/{id}",
    tags,
    summary: "Delete a value",
    request: { params: idParam },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    await deleteValue(getDb(c.env), c.get("auth"), c.req.valid("param").id);
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/entities-by-field",
    tags,
    summary: "Entities with a value of a template matching op (only those the caller can read)",
    request: { body: jsonBody(entitiesByFieldBody) },
    responses: { 200: jsonContent(entitiesByField), ...errors },
  }),
  async (c) => c.json(await searchEntities(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);

export default app;
