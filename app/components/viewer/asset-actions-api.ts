import type { z } from "@hono/zod-openapi";
import * as assets from "../../../shared/assets/contract";
import type { taskOut, templateOut } from "../../../shared/tasks/schemas";
import * as tasks from "../../../shared/tasks/contract";
import { call } from "../../lib/api";

/** The calls of the viewer's actions (decision 055); the shapes are the API's own schemas. */

export type TaskTemplate = z.infer<typeof templateOut>;
export type Task = z.infer<typeof taskOut>;

/** PATCH /api/asset/{id}: the name and the class (null: none). */
export const patchAsset = (id: string, body: { asset_name?: string; asset_class?: string | null }) =>
  call(assets.patchAsset, { params: { id }, body });

/** Copies an asset (its latest version) into a group as a new asset. */
export const copyAsset = (assetId: string, groupId: string) => call(assets.copyAsset, { params: { a: assetId, b: groupId } });

/** Copies each asset into the group, one after another; returns how many were copied (a failure stops and throws). */
export async function copyAssets(assetIds: string[], groupId: string): Promise<number> {
  let n = 0;
  for (const id of assetIds) {
    await copyAsset(id, groupId);
    n++;
  }
  return n;
}

/** An asset with a name and class and no file (spec 3: the abstract entity), placed in a group. */
export const createEmptyAsset = (groupId: string, name: string, classId: string | null) =>
  call(assets.createAsset, {
    body: { asset_name: name, asset_mime: "application/octet-stream", in_group: groupId, ...(classId ? { asset_class: classId } : {}) },
  });

/** The version numbers of an asset, newest first (GET /api/asset/versions gives a row per variant). */
export async function versionNumbers(assetId: string, signal?: AbortSignal): Promise<number[]> {
  const rows = await call(assets.versions, { params: { id: assetId }, signal });
  return [...new Set(rows.map((r) => r.version))].sort((a, b) => b - a);
}

export const variantsOf = (assetId: string, version: number, signal?: AbortSignal) =>
  call(assets.variants, { params: { id: assetId, version }, signal });

/** Templates that apply to the asset, and the proxy profiles among them. */
export const availableTasks = (assetId: string) => call(tasks.availableTasks, { query: { entity: assetId } });
export const availableProfiles = (assetId: string) => call(tasks.availableProfiles, { params: { id: assetId } });
export const enqueueTask = (assetId: string, templateId: string) =>
  call(tasks.enqueueTask, { params: { id: assetId }, body: { template_id: templateId } });
