import type { z } from "@hono/zod-openapi";
import type { asset as assetOut, created, version as versionRow } from "../../../functions/assets/schemas";
import type { taskOut, templateOut } from "../../../functions/tasks/schemas";
import * as tasks from "../../../functions/tasks/contract";
import { api, call } from "../../lib/api";
import type { Variant } from "./viewer-api";

/** The calls of the viewer's actions (decision 055); the shapes are the API's own schemas. */

export type TaskTemplate = z.infer<typeof templateOut>;
export type Task = z.infer<typeof taskOut>;
type VersionRow = z.infer<typeof versionRow>;

/** PATCH /api/asset/{id}: the name and the class (null: none). */
export const patchAsset = (id: string, body: { asset_name?: string; asset_class?: string | null }) =>
  api<z.infer<typeof assetOut>>(`/asset/${id}`, { method: "PATCH", body });

/** Copies an asset (its latest version) into a group as a new asset. */
export const copyAsset = (assetId: string, groupId: string) =>
  api<z.infer<typeof created>>(`/asset/copy/${assetId}/${groupId}`, { method: "POST" });

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
  api<z.infer<typeof created>>("/asset/create", {
    method: "POST",
    body: { asset_name: name, asset_mime: "application/octet-stream", in_group: groupId, ...(classId ? { asset_class: classId } : {}) },
  });

/** The version numbers of an asset, newest first (GET /api/asset/versions gives a row per variant). */
export async function versionNumbers(assetId: string, signal?: AbortSignal): Promise<number[]> {
  const rows = await api<VersionRow[]>(`/asset/versions/${assetId}`, { signal });
  return [...new Set(rows.map((r) => r.version))].sort((a, b) => b - a);
}

export const variantsOf = (assetId: string, version: number, signal?: AbortSignal) =>
  api<Variant[]>(`/asset/variants/${assetId}/${version}`, { signal });

/** Templates that apply to the asset, and the proxy profiles among them. */
export const availableTasks = (assetId: string) => call(tasks.availableTasks, { query: { entity: assetId } });
export const availableProfiles = (assetId: string) => call(tasks.availableProfiles, { params: { id: assetId } });
export const enqueueTask = (assetId: string, templateId: string) =>
  call(tasks.enqueueTask, { params: { id: assetId }, body: { template_id: templateId } });
