import type { z } from "@hono/zod-openapi";
import type { deletedGroup } from "../../shared/groups/schemas";
import * as groups from "../../shared/groups/contract";
import { call } from "./api";

/** The calls «Удалённые» makes (/api/group/deleted, restore, purge); types come from the API's own schema. */

export type DeletedGroup = z.infer<typeof deletedGroup>;

export const TRASH_PAGE = 50;

export const listDeleted = (skip: number, signal?: AbortSignal) => call(groups.listDeleted, { query: { skip, take: TRASH_PAGE }, signal });
export const restoreGroup = (id: string) => call(groups.restoreGroups, { body: { ids: [id] } });
export const purgeGroup = (id: string) => call(groups.purgeGroups, { body: { ids: [id] } });
