import type { z } from "@hono/zod-openapi";
import type { templateOut } from "../../shared/tasks/schemas";
import * as tasks from "../../shared/tasks/contract";
import { call } from "./api";

/** The task templates' calls (/api/tasklist/task-templates, /task-template/{id}); types come from the API's own schema. */

export type TaskTemplate = z.infer<typeof templateOut>;

export interface TemplateBody {
  name: string;
  disabled: boolean;
  operation_class: string;
  setup: Record<string, unknown>;
}

export const listTaskTemplates = (signal?: AbortSignal) => call(tasks.listTemplates, { params: { class: "all" }, signal });
export const createTaskTemplate = (body: TemplateBody) => call(tasks.createTemplate, { body });
export const updateTaskTemplate = (id: string, body: Omit<TemplateBody, "operation_class">) =>
  call(tasks.patchTemplate, { params: { id }, body });
