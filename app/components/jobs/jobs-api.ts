import type { z } from "@hono/zod-openapi";
import * as tasks from "../../../shared/tasks/contract";
import type { logLine, TaskOut } from "../../../shared/tasks/schemas";
import { finalStatuses, type TaskCommand } from "../../../shared/tasks/transitions";
import { call } from "../../lib/api";

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
  call(tasks.listTasks, { query: { ...query(f), skip, take }, signal });
export const countTasks = (f: TaskFilters, signal?: AbortSignal) => call(tasks.countTasks, { query: query(f), signal });
export const taskNames = () => call(tasks.taskNames);
export const taskCommands = (id: string) => call(tasks.taskCommands, { params: { id } });
export const getTask = (id: string, signal?: AbortSignal) => call(tasks.getTask, { params: { id }, signal });
export const taskResult = (id: string) => call(tasks.taskResult, { params: { id } });
export const taskLog = (id: string, after: number, signal?: AbortSignal) =>
  call(tasks.taskLog, { params: { id }, query: { after }, signal });
export const sendCommand = (id: string, command: TaskCommand) => call(tasks.sendCommand, { params: { id }, body: { command } });
export const setPriority = (id: string, priority: number) => call(tasks.setPriority, { params: { id }, body: { priority } });

export const isLive = (s: TaskStatus) => s === "inqueue" || s === "running" || s === "none" || s === "paused";
export const isFinal = (s: TaskStatus) => finalStatuses.includes(s);
/**
 * The commands a row offers: the server's own transition table (shared/tasks/transitions.ts has no
 * server imports), the same one task-commands answers from, so rows need no extra call and cannot drift.
 */
export { commandsFor } from "../../../shared/tasks/transitions";
