import type { z } from "@hono/zod-openapi";
import type { deletedGroup } from "../../functions/groups/schemas";
import { api } from "./api";

/** The calls «Удалённые» makes (/api/group/deleted, restore, purge); types come from the API's own schema. */

export type DeletedGroup = z.infer<typeof deletedGroup>;

export const TRASH_PAGE = 50;

export const listDeleted = (skip: number, signal?: AbortSignal) =>
  api<DeletedGroup[]>("/group/deleted", { query: { skip, take: TRASH_PAGE }, signal });
export const restoreGroup = (id: string) => api("/group/restore", { method: "POST", body: { ids: [id] } });
export const purgeGroup = (id: string) => api("/group/purge", { method: "POST", body: { ids: [id] } });
