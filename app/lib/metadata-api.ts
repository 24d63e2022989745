import type { z } from "@hono/zod-openapi";
import type { assetClass, assetClassBody } from "../../shared/assets/schemas";
import {
  type FieldSetups,
  type FieldType,
  type fieldTemplate,
  type fieldValue,
  fieldTypes,
  type templateBody,
  type templatePatch,
  type valueBody,
  type valueListBody,
} from "../../shared/fields/schemas";
import type { list, listRecord } from "../../shared/lists/schemas";
import type { tag } from "../../shared/tags/schemas";
import type { taxon } from "../../shared/taxonomy/schemas";
import * as assets from "../../shared/assets/contract";
import * as fields from "../../shared/fields/contract";
import * as lists from "../../shared/lists/contract";
import * as tags from "../../shared/tags/contract";
import * as taxonomy from "../../shared/taxonomy/contract";
import { call, routePath } from "./api";

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
export const listTemplates = (signal?: AbortSignal) => call(fields.listTemplates, { signal });
export const getTemplate = (id: string, signal?: AbortSignal) => call(fields.getTemplate, { params: { id }, signal });
export const createTemplate = (body: FieldTemplateBody) => call(fields.createTemplate, { body: withoutEmptyExtsys(body) });
export const changeTemplate = (id: string, body: FieldTemplatePatch) =>
  call(fields.changeTemplate, { params: { id }, body: withoutEmptyExtsys(body) });
/** Without `force` a template that has values answers 409; with it, its values go too. */
export const deleteTemplate = (id: string, force = false) =>
  call(fields.deleteTemplate, { params: { id }, query: { force: force ? "true" : undefined } });

/** An empty external system means "none" (null), not an empty string. */
function withoutEmptyExtsys<T extends { field_def_extsys?: string | null; field_def_extsys_key?: string | null }>(body: T): T {
  const out = { ...body };
  if ("field_def_extsys" in out) out.field_def_extsys = out.field_def_extsys?.trim() || null;
  if ("field_def_extsys_key" in out) out.field_def_extsys_key = out.field_def_extsys_key?.trim() || null;
  return out;
}

// Asset classes
export const listClasses = (signal?: AbortSignal) => call(assets.listClasses, { signal });
export const createClass = (body: AssetClassBody) => call(assets.createClass, { body });
export const changeClass = (id: string, body: Partial<AssetClassBody>) => call(assets.changeClass, { params: { id }, body });
export const deleteClass = (id: string) => call(assets.deleteClass, { params: { id } });

// Tags
export const listTags = (skip: number, take: number, signal?: AbortSignal) => call(tags.listTags, { query: { skip, take }, signal });
export const findTags = (q: string, skip: number, take: number, signal?: AbortSignal) =>
  call(tags.findTags, { body: { q, skip, take }, signal });
export const createTag = (tag_name: string) => call(tags.createTag, { body: { tag_name } });
export const renameTag = (id: string, tag_name: string) => call(tags.renameTag, { params: { id }, body: { tag_name } });
export const deleteTag = (id: string) => call(tags.deleteTag, { params: { id } });

// Taxonomy
export const taxonomyTree = (signal?: AbortSignal) => call(taxonomy.taxonomyTree, { signal });
export const createTaxonPath = (path: string) => call(taxonomy.createTaxon, { body: { path } });
export const changeTaxon = (id: string, body: { name?: string; parent?: string | null }) =>
  call(taxonomy.changeTaxon, { params: { id }, body });
export const deleteTaxon = (id: string) => call(taxonomy.deleteTaxon, { params: { id } });

// Lists
export const listLists = (signal?: AbortSignal) => call(lists.allLists, { signal });
export const createList = (list_name: string) => call(lists.createList, { body: { list_name } });
export const renameList = (listId: string, list_name: string) =>
  call(lists.renameList, { params: { list_id: listId }, body: { list_name } });
/** A 409 while a field template picks from the list. */
export const deleteList = (listId: string) => call(lists.deleteList, { params: { list_id: listId } });
export const listRecords = (listId: string, signal?: AbortSignal) => call(lists.listRecords, { params: { list_id: listId }, signal });
export const createRecord = (listId: string, rec_data: string) =>
  call(lists.createRecord, { params: { list_id: listId }, body: { rec_data } });
export const changeRecord = (listId: string, recId: string, rec_data: string) =>
  call(lists.changeRecord, { params: { list_id: listId, rec_id: recId }, body: { rec_data } });
export const deleteRecord = (listId: string, recId: string) => call(lists.deleteRecord, { params: { list_id: listId, rec_id: recId } });

// Values on an asset or group, and what is filed on it
export type FieldValue = z.infer<typeof fieldValue>;
export const valuesOf = (entityId: string, entityType: "asset" | "group", signal?: AbortSignal) =>
  call(fields.valuesOf, { params: { id: entityId }, query: { entity_type: entityType }, signal });
export const createValue = (body: z.input<typeof valueBody>) => call(fields.createValue, { body });
export const changeValue = (fieldId: string, body: { field_data?: unknown; pts?: [number, number] | null }) =>
  call(fields.changeValue, { params: { id: fieldId }, body });
export const deleteValue = (fieldId: string) => call(fields.deleteValue, { params: { id: fieldId } });
export const createValues = (body: z.input<typeof valueListBody>) => call(fields.createValues, { body });
export const importCsv = (groupId: string, csv: string, dry_run: boolean) =>
  call(fields.importCsv, { params: { id: groupId }, body: { csv, dry_run } });
export const exportCsvPath = (groupId: string) => routePath(fields.exportCsv, { id: groupId });
export const attachTags = (tag_ids: string[], entities: { id: string; type: "asset" | "group" }[]) =>
  call(tags.attachTags, { body: { tag_ids, entities } });
export const detachTags = (tag_ids: string[], entities: { id: string; type: "asset" | "group" }[]) =>
  call(tags.detachTags, { body: { tag_ids, entities } });
export const taxaOf = (entityId: string, signal?: AbortSignal) => call(taxonomy.taxaOf, { params: { id: entityId }, signal });
export const fileUnder = (taxonId: string, objectId: string) => call(taxonomy.addMember, { params: { id: taxonId }, body: { objectId } });
export const unfile = (taxonId: string, objectId: string) => call(taxonomy.deleteMember, { params: { id: taxonId }, body: { objectId } });
