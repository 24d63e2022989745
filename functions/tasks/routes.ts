import { createRoute, z } from "@hono/zod-openapi";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { taskFor } from "./access";
import { commandTask, enqueueTask, setPriority } from "./commands";
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
import { countTasks, getTask, listTasks, taskLog, taskNames, taskResult, taskStatuses as statusesOf } from "./service";
import { availableTasks, createTemplate, listTemplates, patchTemplate } from "./templates";
import { commandsFor } from "./transitions";
import { uuid } from "../assets/schemas";

/** /api/tasklist. Reads need read on the task's asset, commands update, enqueueing execute. */
const app = createApp();
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

app.openapi(
  createRoute({
    method: "get",
    path: "/current",
    tags,
    summary: "Tasks, newest first, filtered (status a comma list) and paged",
    request: { query: taskQuery },
    responses: { 200: jsonContent(z.array(taskOut)), ...errors },
  }),
  async (c) => {
    const { skip, take, ...f } = c.req.valid("query");
    return c.json(await listTasks(getDb(c.env), c.get("auth"), f, skip, take), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/current/count",
    tags,
    summary: "How many tasks match the filters",
    request: { query: taskFilter },
    responses: { 200: jsonContent(taskCountOut), ...errors },
  }),
  async (c) => c.json(await countTasks(getDb(c.env), c.get("auth"), c.req.valid("query")), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/names",
    tags,
    summary: "Template names of the visible tasks (for the filter)",
    responses: { 200: jsonContent(taskNamesOut), ...errors },
  }),
  async (c) => c.json(await taskNames(getDb(c.env), c.get("auth")), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/task-status",
    tags,
    summary: "Status and progress of many tasks (unreadable ids are left out)",
    request: { body: jsonBody(statusBody) },
    responses: { 200: jsonContent(z.array(statusRow)), ...errors },
  }),
  async (c) => c.json(await statusesOf(getDb(c.env), c.get("auth"), c.req.valid("json").ids), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/task/{id}",
    tags,
    summary: "One task",
    request: { params: idParam },
    responses: { 200: jsonContent(taskOut), ...errors },
  }),
  async (c) => c.json(await getTask(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/task-result/{id}",
    tags,
    summary: "A task's result (tech fields, outputs) or error",
    request: { params: idParam },
    responses: { 200: jsonContent(taskResultOut), ...errors },
  }),
  async (c) => c.json(await taskResult(getDb(c.env), c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/command/{id}",
    tags,
    summary: "pause, resume, cancel or restart (409 with the current status when not valid)",
    request: { params: idParam, body: jsonBody(commandBody) },
    responses: { 200: jsonContent(taskOut), ...withConflict },
  }),
  async (c) => c.json(await commandTask(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json").command), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/priority/{id}",
    tags,
    summary: "Set the priority (-100…100; higher runs first among queued tasks)",
    request: { params: idParam, body: jsonBody(priorityBody) },
    responses: { 200: jsonContent(taskOut), ...withConflict },
  }),
  async (c) => c.json(await setPriority(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json").priority), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/available-tasks",
    tags,
    summary: "Enabled templates; with entity, those that apply to that asset",
    request: { query: z.object({ entity: uuid.optional() }) },
    responses: { 200: jsonContent(z.array(templateOut)), ...errors },
  }),
  async (c) => c.json(await availableTasks(getDb(c.env), c.get("auth"), c.req.valid("query").entity), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/available-profiles/{id}",
    tags,
    summary: "Proxy profiles that apply to an asset",
    request: { params: idParam },
    responses: { 200: jsonContent(z.array(templateOut)), ...errors },
  }),
  async (c) => c.json(await availableTasks(getDb(c.env), c.get("auth"), c.req.valid("param").id, ["proxy", "audio_proxy"]), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/enqueue-task/{id}",
    tags,
    summary: "Run a template on an asset by hand (needs execute)",
    request: { params: idParam, body: jsonBody(enqueueBody) },
    responses: { 200: jsonContent(taskOut), ...errors },
  }),
  async (c) => c.json(await enqueueTask(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/task-commands/{id}",
    tags,
    summary: "Commands valid in the task's current status",
    request: { params: idParam },
    responses: { 200: jsonContent(taskCommandsOut), ...errors },
  }),
  async (c) => {
    const t = await taskFor(getDb(c.env), c.get("auth"), c.req.valid("param").id);
    return c.json({ status: t.status, commands: commandsFor(t.status) }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/task-templates/{class}",
    tags,
    summary: "Templates of an operation class (or all)",
    request: { params: classParam },
    responses: { 200: jsonContent(z.array(templateOut)), ...errors },
  }),
  async (c) => c.json(await listTemplates(getDb(c.env), c.get("auth"), c.req.valid("param").class), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/task-templates",
    tags,
    summary: "Add a template (admins): a proxy profile, a watermark…",
    request: { body: jsonBody(templateCreateBody as never) },
    responses: { 200: jsonContent(templateOut), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await createTemplate(getDb(c.env), c.get("auth"), c.req.valid("json") as never), 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/task-template/{id}",
    tags,
    summary: "Rename, disable or re-configure a template (admins)",
    request: { params: idParam, body: jsonBody(templatePatchBody) },
    responses: { 200: jsonContent(templateOut), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    return c.json(await patchTemplate(getDb(c.env), c.get("auth"), c.req.valid("param").id, c.req.valid("json")), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/log/{id}",
    tags,
    summary: "A task's log lines after seq `after` (poll with the last seq)",
    request: { params: idParam, query: logQuery },
    responses: { 200: jsonContent(z.array(logLine)), ...errors },
  }),
  async (c) => {
    const { after, take } = c.req.valid("query");
    return c.json(await taskLog(getDb(c.env), c.get("auth"), c.req.valid("param").id, after, take), 200);
  },
);

export default app;
