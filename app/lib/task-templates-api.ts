import type { z } from "@hono/zod-openapi";
import type { templateOut } from "../../functions/tasks/schemas";
import { api } from "./api";

/** The task templates' calls (/api/tasklist/task-templates, /task-template/{id}); types come from the API's own schema. */

export type TaskTemplate = z.infer<typeof templateOut>;

export interface TemplateBody {
  name: string;
  disabled: boolean;
  operation_class: string;
  setup: Record<string, unknown>;
}

export const listTaskTemplates = (signal?: AbortSignal) => api<TaskTemplate[]>("/tasklist/task-templates/all", { signal });
export const createTaskTemplate = (body: TemplateBody) => api<TaskTemplate>("/tasklist/task-templates", { method: "POST", body });
export const updateTaskTemplate = (id: string, body: Omit<TemplateBody, "operation_class">) =>
  api<TaskTemplate>(`/tasklist/task-template/${id}`, { method: "PATCH", body });
