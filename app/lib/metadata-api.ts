import type { z } from "@hono/zod-openapi";
import type { assetClass, assetClassBody } from "../../functions/assets/schemas";
import {
  type FieldSetups,
  type FieldType,
  type fieldTemplate,
  type fieldValue,
  fieldTypes,
  type templateBody,
  type templatePatch,
  type valueBody,
} from "../../functions/fields/schemas";
import type { list, listRecord } from "../../functions/lists/schemas";
import type { tag } from "../../functions/tags/schemas";
import type { taxon } from "../../functions/taxonomy/schemas";
import * as tags from "../../functions/tags/contract";
import { api, call } from "./api";

/** The calls the metadata admin screens make (/api/fields, /api/asset/class, /api/tags, /api/taxonomy, /api/lists). */

export type AssetClass = z.infer<typeof assetClass>;
export type AssetClassBody = z.infer<typeof assetClassBody>;
export type Tag = z.infer<typeof tag>;

export { fieldTypes };
export type { FieldSetups, FieldType };
export type FieldTemplate = z.infer<typeof fieldTemplate>;
export type FieldTemplateBody = z.input<typeof templateBody>;
export type FieldTemplatePatch = z.input<typeof templatePatch>;

export type Taxon = z.infer<typeof taxon>;
export type ListInfo = z.infer<typeof list>;
export type ListRecord = z.infer<typeof listRecord>;

// Field templates
export const listTemplates = (signal?: AbortSignal) => api<FieldTemplate[]>("/fields/templates", { signal });
export const getTemplate = (id: string, signal?: AbortSignal) => api<FieldTemplate>(`/fields/templates/${id}`, { signal });
export const createTemplate = (body: FieldTemplateBody) =>
  api<{ field_def_id: string }>("/fields/templates", { method: "POST", body: withoutEmptyExtsys(body) });
export const changeTemplate = (id: string, body: FieldTemplatePatch) =>
  api<FieldTemplate>(`/fields/templates/${id}`, { method: "PATCH", body: withoutEmptyExtsys(body) });
/** Without `force` a template that has values answers 409; with it, its values go too. */
export const deleteTemplate = (id: string, force = false) =>
  api(`/fields/templates/${id}`, { method: "DELETE", query: { force: force ? "true" : undefined } });

/** An empty external system means "none" (null), not an empty string. */
function withoutEmptyExtsys<T extends { field_def_extsys?: string | null; field_def_extsys_key?: string | null }>(body: T): T {
  const out = { ...body };
  if ("field_def_extsys" in out) out.field_def_extsys = out.field_def_extsys?.trim() || null;
  if ("field_def_extsys_key" in out) out.field_def_extsys_key = out.field_def_extsys_key?.trim() || null;
  return out;
}

// Asset classes
export const listClasses = (signal?: AbortSignal) => api<AssetClass[]>("/asset/class", { signal });
export const createClass = (body: AssetClassBody) => api<AssetClass>("/asset/class", { method: "POST", body });
export const changeClass = (id: string, body: Partial<AssetClassBody>) => api<AssetClass>(`/asset/class/${id}`, { method: "PATCH", body });
export const deleteClass = (id: string) => api(`/asset/class/${id}`, { method: "DELETE" });

// Tags
export const listTags = (skip: number, take: number, signal?: AbortSignal) => call(tags.listTags, { query: { skip, take }, signal });
export const findTags = (q: string, skip: number, take: number, signal?: AbortSignal) =>
  call(tags.findTags, { body: { q, skip, take }, signal });
export const createTag = (tag_name: string) => call(tags.createTag, { body: { tag_name } });
export const renameTag = (id: string, tag_name: string) => call(tags.renameTag, { params: { id }, body: { tag_name } });
export const deleteTag = (id: string) => call(tags.deleteTag, { params: { id } });

// Taxonomy
export const taxonomyTree = (signal?: AbortSignal) => api<Taxon[]>("/taxonomy/tree", { signal });
export const createTaxonPath = (path: string) => api<{ taxon_id: string }>("/taxonomy/create", { method: "POST", body: { path } });
export const changeTaxon = (id: string, body: { name?: string; parent?: string | null }) =>
  api(`/taxonomy/change/${id}`, { method: "PATCH", body });
export const deleteTaxon = (id: string) => api(`/taxonomy/delete/${id}`, { method: "DELETE" });

// Lists
export const listLists = (signal?: AbortSignal) => api<ListInfo[]>("/lists", { signal });
export const createList = (list_name: string) => api<{ list_id: string }>("/lists", { method: "POST", body: { list_name } });
export const renameList = (listId: string, list_name: string) =>
  api<ListInfo>(`/lists/${listId}`, { method: "PATCH", body: { list_name } });
/** A 409 while a field template picks from the list. */
export const deleteList = (listId: string) => api(`/lists/${listId}`, { method: "DELETE" });
export const listRecords = (listId: string, signal?: AbortSignal) => api<ListRecord[]>(`/lists/records/${listId}`, { signal });
export const createRecord = (listId: string, rec_data: string) => api(`/lists/records/${listId}`, { method: "POST", body: { rec_data } });
export const changeRecord = (listId: string, recId: string, rec_data: string) =>
  api(`/lists/records/${listId}/${recId}`, { method: "PATCH", body: { rec_data } });
export const deleteRecord = (listId: string, recId: string) => api(`/lists/records/${listId}/${recId}`, { method: "DELETE" });

// Values on an asset or group, and what is filed on it
export type FieldValue = z.infer<typeof fieldValue>;
export const valuesOf = (entityId: string, entityType: "asset" | "group", signal?: AbortSignal) =>
  api<FieldValue[]>(`/fields/for-entity/${entityId}`, { query: { entity_type: entityType }, signal });
export const createValue = (body: z.input<typeof valueBody>) => api<{ field_id: string }>("/fields/create", { method: "POST", body });
export const changeValue = (fieldId: string, body: { field_data?: unknown; pts?: [number, number] | null }) =>
  api<FieldValue>(`/fields/change/${fieldId}`, { method: "PATCH", body });
export const deleteValue = (fieldId: string) => api(`/fields/delete/${fieldId}`, { method: "DELETE" });
export const attachTags = (tag_ids: string[], entities: { id: string; type: "asset" | "group" }[]) =>
  call(tags.attachTags, { body: { tag_ids, entities } });
export const detachTags = (tag_ids: string[], entities: { id: string; type: "asset" | "group" }[]) =>
  call(tags.detachTags, { body: { tag_ids, entities } });
export const taxaOf = (entityId: string, signal?: AbortSignal) => api<Taxon[]>(`/taxonomy/for-entity/${entityId}`, { signal });
export const fileUnder = (taxonId: string, objectId: string) =>
  api(`/taxonomy/add-member/${taxonId}`, { method: "POST", body: { objectId } });
export const unfile = (taxonId: string, objectId: string) => api(`/taxonomy/del-member/${taxonId}`, { method: "POST", body: { objectId } });
