import { z } from "@hono/zod-openapi";
import { idParam } from "../assets/schemas";
import { defineRoute, errorAnswers, jsonBody, jsonContent } from "../lib/route-contract";
import { createStorageBody, forEntity, setForEntityBody, storage, storageBrief, updateStorageBody, usage } from "./schemas";

/**
 * /api/storage, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md,
 * 008-storages.md). Managing storages is for admins; reading the choice is not.
 */
const tags = ["storage"];
const errors = errorAnswers({ 403: "Admins only", 404: "Not found" });

export const createStorage = defineRoute({
  method: "post",
  path: "/storage/create",
  tags,
  summary: "Add a storage (R2 binding or S3-compatible)",
  request: { body: jsonBody(createStorageBody) },
  responses: { 200: jsonContent(storage), ...errors },
});
export const listStorages = defineRoute({
  method: "get",
  path: "/storage/list",
  tags,
  summary: "Storages: admins get the setup (never credentials), others ids and names only",
  responses: { 200: jsonContent(z.array(z.union([storage, storageBrief]))), ...errors },
});
export const updateStorage = defineRoute({
  method: "patch",
  path: "/storage/update/{id}",
  tags,
  summary: "Change a storage; credentials can be replaced or cleared, not read",
  request: { params: idParam, body: jsonBody(updateStorageBody) },
  responses: { 200: jsonContent(storage), ...errors },
});
export const storageUsage = defineRoute({
  method: "get",
  path: "/storage/usage",
  tags,
  summary: "Bytes and object counts per storage",
  responses: { 200: jsonContent(z.array(usage)), ...errors },
});
export const storageForEntity = defineRoute({
  method: "get",
  path: "/storage/for-entity/{id}",
  tags,
  summary: "The storage an asset, group or user puts bytes in, and why",
  request: { params: idParam },
  responses: { 200: jsonContent(forEntity), ...errors },
});
export const setStorageForEntity = defineRoute({
  method: "post",
  path: "/storage/for-entity/{id}",
  tags,
  summary: "Set (or clear) an asset's own storage",
  request: { params: idParam, body: jsonBody(setForEntityBody) },
  responses: { 200: jsonContent(forEntity), ...errors },
});
