import type { z } from "@hono/zod-openapi";
import type { logLine, TaskOut, taskCommandsOut, taskCountOut, taskNamesOut, taskResultOut } from "../../../functions/tasks/schemas";
import { finalStatuses } from "../../../functions/tasks/transitions";
import { api } from "../../lib/api";

/** The /api/tasklist calls the jobs screens make; the shapes are the API's own schemas. */
export type Task = TaskOut;
export type TaskStatus = Task["status"];
export interface TaskFilters {
  status: string[];
  template: string | null;
  owner: string | null;
  entity: string;
}
export type LogLine = z.infer<typeof logLine>;

const query = (f: TaskFilters) => ({
  status: f.status.length ? f.status.join(",") : undefined,
  template: f.template ?? undefined,
  owner: f.owner ?? undefined,
  entity: /^[0-9a-f-]{36}$/i.test(f.entity.trim()) ? f.entity.trim() : undefined,
});

export const listTasks = (f: TaskFilters, skip: number, take: number, signal?: AbortSignal) =>
  api<Task[]>("/tasklist/current", { query: { ...query(f), skip, take }, signal });
export const countTasks = (f: TaskFilters, signal?: AbortSignal) =>
  api<z.infer<typeof taskCountOut>>("/tasklist/current/count", { query: query(f), signal });
export const taskNames = () => api<z.infer<typeof taskNamesOut>>("/tasklist/names");
export const taskCommands = (id: string) => api<z.infer<typeof taskCommandsOut>>(`/tasklist/task-commands/${id}`);
export const getTask = (id: string, signal?: AbortSignal) => api<Task>(`/tasklist/task/${id}`, { signal });
export const taskResult = (id: string) => api<z.infer<typeof taskResultOut>>(`/tasklist/task-result/${id}`);
export const taskLog = (id: string, after: number, signal?: AbortSignal) =>
  api<LogLine[]>(`/tasklist/log/${id}`, { query: { after }, signal });
export const sendCommand = (id: string, command: string) => api<Task>(`/tasklist/command/${id}`, { method: "POST", body: { command } });
export const setPriority = (id: string, priority: number) => api<Task>(`/tasklist/priority/${id}`, { method: "POST", body: { priority } });

export const isLive = (s: TaskStatus) => s === "inqueue" || s === "running" || s === "none" || s === "paused";
export const isFinal = (s: TaskStatus) => finalStatuses.includes(s);
/**
 * The commands a row offers: the server's own transition table (functions/tasks/transitions.ts has no
 * server imports), the same one task-commands answers from, so rows need no extra call and cannot drift.
 */
export { commandsFor } from "../../../functions/tasks/transitions";
