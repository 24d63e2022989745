import { z } from "@hono/zod-openapi";
import { uuid } from "../assets/schemas";
import { defineRoute, errorResponses, jsonBody, jsonContent } from "../lib/route-contract";
import {
  classParam,
  commandBody,
  enqueueBody,
  idParam,
  logLine,
  logQuery,
  priorityBody,
  statusBody,
  taskCommandsOut,
  taskCountOut,
  taskFilter,
  taskNamesOut,
  taskOut,
  taskQuery,
  taskResultOut,
  taskStatuses,
  templateCreateBody,
  templateOut,
  templatePatchBody,
} from "./schemas";

/**
 * /api/tasklist, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md).
 * Reads need read on the task's asset, commands update, enqueueing execute.
 */
const tags = ["tasks"];
const e404 = { description: "Not found, or not readable by the caller", content: errorResponses[400].content };
const errors = { ...errorResponses, 403: { description: "Lacks the permission", content: errorResponses[400].content }, 404: e404 };
const withConflict = {
  ...errors,
  409: { description: "Not valid in the task's current status (details name it)", content: errorResponses[400].content },
};
const statusRow = z.object({
  job_id: z.string(),
  status: z.enum(taskStatuses),
  progress: z.number(),
  progress_info: z.string(),
  start_time: z.number().nullable(),
  stop_time: z.number().nullable(),
  priority: z.number(),
  error: z.string().nullable(),
  commands: z.array(z.string()),
});

export const listTasks = defineRoute({
  method: "get",
  path: "/tasklist/current",
  tags,
  summary: "Tasks, newest first, filtered (status a comma list) and paged",
  request: { query: taskQuery },
  responses: { 200: jsonContent(z.array(taskOut)), ...errors },
});
export const countTasks = defineRoute({
  method: "get",
  path: "/tasklist/current/count",
  tags,
  summary: "How many tasks match the filters",
  request: { query: taskFilter },
  responses: { 200: jsonContent(taskCountOut), ...errors },
});
export const taskNames = defineRoute({
  method: "get",
  path: "/tasklist/names",
  tags,
  summary: "Template names of the visible tasks (for the filter)",
  responses: { 200: jsonContent(taskNamesOut), ...errors },
});
export const statusOfTasks = defineRoute({
  method: "post",
  path: "/tasklist/task-status",
  tags,
  summary: "Status and progress of many tasks (unreadable ids are left out)",
  request: { body: jsonBody(statusBody) },
  responses: { 200: jsonContent(z.array(statusRow)), ...errors },
});
export const getTask = defineRoute({
  method: "get",
  path: "/tasklist/task/{id}",
  tags,
  summary: "One task",
  request: { params: idParam },
  responses: { 200: jsonContent(taskOut), ...errors },
});
export const taskResult = defineRoute({
  method: "get",
  path: "/tasklist/task-result/{id}",
  tags,
  summary: "A task's result (tech fields, outputs) or error",
  request: { params: idParam },
  responses: { 200: jsonContent(taskResultOut), ...errors },
});
export const sendCommand = defineRoute({
  method: "post",
  path: "/tasklist/command/{id}",
  tags,
  summary: "pause, resume, cancel or restart (409 with the current status when not valid)",
  request: { params: idParam, body: jsonBody(commandBody) },
  responses: { 200: jsonContent(taskOut), ...withConflict },
});
export const setPriority = defineRoute({
  method: "post",
  path: "/tasklist/priority/{id}",
  tags,
  summary: "Set the priority (-100…100; higher runs first among queued tasks)",
  request: { params: idParam, body: jsonBody(priorityBody) },
  responses: { 200: jsonContent(taskOut), ...withConflict },
});
export const availableTasks = defineRoute({
  method: "get",
  path: "/tasklist/available-tasks",
  tags,
  summary: "Enabled templates; with entity, those that apply to that asset",
  request: { query: z.object({ entity: uuid.optional() }) },
  responses: { 200: jsonContent(z.array(templateOut)), ...errors },
});
export const availableProfiles = defineRoute({
  method: "get",
  path: "/tasklist/available-profiles/{id}",
  tags,
  summary: "Proxy profiles that apply to an asset",
  request: { params: idParam },
  responses: { 200: jsonContent(z.array(templateOut)), ...errors },
});
export const enqueueTask = defineRoute({
  method: "post",
  path: "/tasklist/enqueue-task/{id}",
  tags,
  summary: "Run a template on an asset by hand (needs execute)",
  request: { params: idParam, body: jsonBody(enqueueBody) },
  responses: { 200: jsonContent(taskOut), ...errors },
});
export const taskCommands = defineRoute({
  method: "get",
  path: "/tasklist/task-commands/{id}",
  tags,
  summary: "Commands valid in the task's current status",
  request: { params: idParam },
  responses: { 200: jsonContent(taskCommandsOut), ...errors },
});
export const listTemplates = defineRoute({
  method: "get",
  path: "/tasklist/task-templates/{class}",
  tags,
  summary: "Templates of an operation class (or all)",
  request: { params: classParam },
  responses: { 200: jsonContent(z.array(templateOut)), ...errors },
});
export const createTemplate = defineRoute({
  method: "post",
  path: "/tasklist/task-templates",
  tags,
  summary: "Add a template (admins): a proxy profile, a watermark…",
  request: { body: jsonBody(templateCreateBody as never) },
  responses: { 200: jsonContent(templateOut), ...errors },
});
export const patchTemplate = defineRoute({
  method: "patch",
  path: "/tasklist/task-template/{id}",
  tags,
  summary: "Rename, disable or re-configure a template (admins)",
  request: { params: idParam, body: jsonBody(templatePatchBody) },
  responses: { 200: jsonContent(templateOut), ...errors },
});
export const taskLog = defineRoute({
  method: "get",
  path: "/tasklist/log/{id}",
  tags,
  summary: "A task's log lines after seq `after` (poll with the last seq)",
  request: { params: idParam, query: logQuery },
  responses: { 200: jsonContent(z.array(logLine)), ...errors },
});
