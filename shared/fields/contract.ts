import { z } from "@hono/zod-openapi";
import { idParam } from "../groups/schemas";
import { defineRoute, errorResponses, jsonBody, jsonContent } from "../lib/route-contract";
import {
  csvImportBody,
  csvImportReport,
  entitiesByField,
  entitiesByFieldBody,
  fieldIdOut,
  fieldIdsOut,
  fieldTemplate,
  fieldValue,
  forceQuery,
  forEntityQuery,
  ok,
  templateBody,
  templateIdOut,
  templatePatch,
  valueBody,
  valueListBody,
  valuePatch,
} from "./schemas";

/**
 * /api/fields, served by ./templates.ts and ./routes.ts and called by the browser through call()
 * (docs/decisions/070-route-contracts.md): templates, and the values entities hold (docs/decisions/031-custom-fields.md).
 */
const tags = ["fields"];
const errorOf = (description: string) => ({ description, content: errorResponses[400].content });
const templateErrors = { ...errorResponses, 403: errorOf("Admins only"), 404: errorOf("Not found"), 409: errorOf("In use") };
const errors = { ...errorResponses, 403: errorOf("Lacks update on the entity"), 404: errorOf("Not found or not readable") };

// Templates (admins change them)
export const listTemplates = defineRoute({
  method: "get",
  path: "/fields/templates",
  tags,
  summary: "All field templates",
  responses: { 200: jsonContent(z.array(fieldTemplate)), ...templateErrors },
});
export const createTemplate = defineRoute({
  method: "post",
  path: "/fields/templates",
  tags,
  summary: "Create a field template (admins)",
  request: { body: jsonBody(templateBody) },
  responses: { 200: jsonContent(templateIdOut), ...templateErrors },
});
export const getTemplate = defineRoute({
  method: "get",
  path: "/fields/templates/{id}",
  tags,
  summary: "One field template",
  request: { params: idParam },
  responses: { 200: jsonContent(fieldTemplate), ...templateErrors },
});
export const changeTemplate = defineRoute({
  method: "patch",
  path: "/fields/templates/{id}",
  tags,
  summary: "Change a field template (admins); the type changes only while it has no values",
  request: { params: idParam, body: jsonBody(templatePatch) },
  responses: { 200: jsonContent(fieldTemplate), ...templateErrors },
});
export const deleteTemplate = defineRoute({
  method: "delete",
  path: "/fields/templates/{id}",
  tags,
  summary: "Delete a field template (admins); 409 while it has values, unless force=true deletes them too",
  request: { params: idParam, query: forceQuery },
  responses: { 200: jsonContent(ok), ...templateErrors },
});

// Values

export const exportCsv = defineRoute({
  method: "get",
  path: "/fields/export-csv/{id}",
  tags,
  summary: "The field values of a group's assets as CSV (read on the group; its assets the caller can read)",
  request: { params: idParam },
  responses: { 200: { description: "CSV, UTF-8 with a byte order mark", content: { "text/csv": { schema: z.string() } } }, ...errors },
});
export const importCsv = defineRoute({
  method: "post",
  path: "/fields/import-csv/{id}",
  tags,
  summary: "Read an edited export back: a report per row; with dry_run false, all valid changes in one batch",
  request: { params: idParam, body: jsonBody(csvImportBody) },
  responses: { 200: jsonContent(csvImportReport), ...errors },
});
export const valuesOf = defineRoute({
  method: "get",
  path: "/fields/for-entity/{id}",
  tags,
  summary: "The values of an entity; pts_from/pts_to keep the time-coded values overlapping that range",
  request: { params: idParam, query: forEntityQuery },
  responses: { 200: jsonContent(z.array(fieldValue)), ...errors },
});
export const createValue = defineRoute({
  method: "post",
  path: "/fields/create",
  tags,
  summary: "Create a value (update on the entity)",
  request: { body: jsonBody(valueBody) },
  responses: { 200: jsonContent(fieldIdOut), ...errors },
});
export const createValues = defineRoute({
  method: "post",
  path: "/fields/create-list",
  tags,
  summary: "Create up to 1,000 values in one batch: all or nothing",
  request: { body: jsonBody(valueListBody) },
  responses: { 200: jsonContent(fieldIdsOut), ...errors },
});
export const changeValue = defineRoute({
  method: "patch",
  path: "/fields/change/{id}",
  tags,
  summary: "Change a value's field_data and/or pts",
  request: { params: idParam, body: jsonBody(valuePatch) },
  responses: { 200: jsonContent(fieldValue), ...errors },
});
export const deleteValue = defineRoute({
  method: "delete",
  path: "/fields/delete/{id}",
  tags,
  summary: "Delete a value",
  request: { params: idParam },
  responses: { 200: jsonContent(ok), ...errors },
});
export const findByField = defineRoute({
  method: "post",
  path: "/fields/entities-by-field",
  tags,
  summary: "Entities with a value of a template matching op (only those the caller can read)",
  request: { body: jsonBody(entitiesByFieldBody) },
  responses: { 200: jsonContent(entitiesByField), ...errors },
});
