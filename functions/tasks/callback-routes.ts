import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { verifyUrl } from "../uploads/sign";
import { finishTask, failTask, putOutput, reportProgress, taskForCallback } from "./callbacks";
import { idParam } from "./schemas";

/**
 * /api/task-cb: the transcoder's callbacks. Open routes (functions/lib/auth.ts openRoutes): no bearer,
 * the per-task token in X-Task-Token instead; output PUTs carry a URL signature for their run and name.
 */
const app = createApp();
const tags = ["transcoder callbacks"];
const run = z.coerce.number({ error: "должно быть числом" }).int().min(1, "запуск нумеруется с 1");
const lines = z.array(z.string().max(10_000)).max(500);
const level = z.enum(["info", "warn", "error"]);
const ok = jsonContent(z.object({ ok: z.literal(true) }).passthrough());
const errors = { ...errorResponses, 403: { description: "Bad token or signature", content: errorResponses[400].content }, 409: { description: "This run is no longer wanted", content: errorResponses[400].content } };
const token = (h: string | undefined) => h?.trim() || undefined;

const progressBody = z.object({
  run, progress: z.number().min(0).max(100).optional(), progress_info: z.string().max(500).optional(),
  worker_info: z.string().max(200).optional(), lines: lines.optional(), level: level.optional(),
}).openapi("TaskProgress");
const outputReport = z.object({ name: z.string().min(1).max(64), mime: z.string().min(3).max(100), file_name: z.string().max(255).optional(), format: z.string().max(16).optional(), tech: z.record(z.string(), z.unknown()).optional() });
const resultBody = z.object({ run, tech: z.record(z.string(), z.unknown()).optional(), outputs: z.array(outputReport).max(10).optional(), lines: lines.optional() }).openapi("TaskResult");
const failBody = z.object({ run, error: z.string().min(1).max(5000), lines: lines.optional() }).openapi("TaskFailure");

app.openapi(
  createRoute({ method: "post", path: "/task-cb/{id}/progress", tags, summary: "Progress, log lines, heartbeat", request: { params: idParam, body: jsonBody(progressBody) }, responses: { 200: ok, ...errors } }),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    const t = await taskForCallback(db, c.req.valid("param").id, token(c.req.header("X-Task-Token")), body.run);
    return c.json(await reportProgress(db, t, body), 200);
  },
);

app.openapi(
  createRoute({ method: "post", path: "/task-cb/{id}/result", tags, summary: "The result: registers outputs and tech fields, task done", request: { params: idParam, body: jsonBody(resultBody) }, responses: { 200: ok, ...errors } }),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    const t = await taskForCallback(db, c.req.valid("param").id, token(c.req.header("X-Task-Token")), body.run);
    return c.json(await finishTask(db, c.env, t, body), 200);
  },
);

app.openapi(
  createRoute({ method: "post", path: "/task-cb/{id}/fail", tags, summary: "The task failed: error with its log", request: { params: idParam, body: jsonBody(failBody) }, responses: { 200: ok, ...errors } }),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    const t = await taskForCallback(db, c.req.valid("param").id, token(c.req.header("X-Task-Token")), body.run);
    return c.json(await failTask(db, c.env, t, body.error, body.lines), 200);
  },
);

app.openapi(
  createRoute({
    method: "put", path: "/task-cb/{id}/out/{name}", tags, summary: "An output file (exact Content-Length, signed URL)",
    request: {
      params: idParam.extend({ name: z.string().regex(/^[a-z_]{1,32}$/, "имя выхода").openapi({ param: { name: "name", in: "path" } }) }),
      query: z.object({ run, exp: z.string().optional(), sig: z.string().optional() }),
    },
    responses: { 200: jsonContent(z.object({ name: z.string(), size: z.number(), etag: z.string() })), ...errors },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    const q = c.req.valid("query");
    if (!(await verifyUrl(c.env.JWT_SECRET, "task-out", `${id}:${q.run}:${name}`, q.exp, q.sig))) throw new ApiError("forbidden", "Ссылка недействительна или устарела");
    const db = getDb(c.env);
    const t = await taskForCallback(db, id, token(c.req.header("X-Task-Token")), q.run);
    const size = Number(c.req.header("Content-Length") ?? NaN);
    return c.json(await putOutput(db, c.env, t, name, size, c.req.header("Content-Type") ?? "", c.req.raw.body), 200);
  },
);

export default app;
