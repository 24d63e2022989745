import { createRoute, z } from "@hono/zod-openapi";
import { NOT_CONFIGURED as ASR_NOT_CONFIGURED } from "./recognize";
import { MAX_SEGMENTS, segment } from "../../shared/transcripts/schemas";
import { recognizeWithBinding } from "../transcripts/workers-ai";
import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { verifyUrl } from "../lib/sign";
import { finishTask, failTask, putOutput, reportProgress, taskForCallback } from "./callbacks";
import { pushLive, renditionMessage } from "../review/live";
import { completeOutputParts, putOutputPart, startOutputParts } from "./output-parts";
import { idParam } from "../../shared/tasks/schemas";
import { MAX_DOCUMENT_TEXT } from "../../shared/lib/constants";

/**
 * /api/task-cb: the transcoder's callbacks. Open routes (functions/lib/auth.ts openRoutes): no bearer,
 * the per-task token in X-Task-Token instead (401 when wrong); output calls also carry a URL signature
 * for their run and name (403 when wrong).
 */
const app = createApp();
const tags = ["transcoder callbacks"];
const run = z.coerce.number({ error: "должно быть числом" }).int().min(1, "запуск нумеруется с 1");
const lines = z.array(z.string().max(10_000)).max(500);
const level = z.enum(["info", "warn", "error"]);
const ok = jsonContent(z.object({ ok: z.literal(true) }).passthrough());
const errors = {
  ...errorResponses,
  401: {
    description: "No such task, or not this run's token (the envelope only, nothing about the task)",
    content: errorResponses[400].content,
  },
  403: { description: "Bad or expired URL signature (output calls)", content: errorResponses[400].content },
  409: { description: "This run is no longer wanted", content: errorResponses[400].content },
};
const token = (h: string | undefined) => h?.trim() || undefined;

const progressBody = z
  .object({
    run,
    progress: z.number().min(0).max(100).optional(),
    progress_info: z.string().max(500).optional(),
    worker_info: z.string().max(200).optional(),
    lines: lines.optional(),
    level: level.optional(),
  })
  .openapi("TaskProgress");
const outputReport = z.object({
  name: z.string().min(1).max(64),
  mime: z.string().min(3).max(100),
  file_name: z.string().max(255).optional(),
  format: z.string().max(16).optional(),
  tech: z.record(z.string(), z.unknown()).optional(),
});
const resultBody = z
  .object({
    run,
    tech: z.record(z.string(), z.unknown()).optional(),
    outputs: z.array(outputReport).max(10).optional(),
    lines: lines.optional(),
    text: z.string().max(MAX_DOCUMENT_TEXT).optional().openapi({ description: "a document's text (class text), indexed for search" }),
    transcript: z
      .object({ language: z.string().max(35), segments: z.array(segment).max(MAX_SEGMENTS) })
      .optional()
      .openapi({ description: "recognised speech (class transcribe): the source version's transcript, source asr" }),
  })
  .openapi("TaskResult");
const failBody = z.object({ run, error: z.string().min(1).max(5000), lines: lines.optional() }).openapi("TaskFailure");

app.openapi(
  createRoute({
    method: "post",
    path: "/task-cb/{id}/progress",
    security: [],
    tags,
    summary: "Progress, log lines, heartbeat",
    request: { params: idParam, body: jsonBody(progressBody) },
    responses: { 200: ok, ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    const t = await taskForCallback(db, c.req.valid("param").id, token(c.req.header("X-Task-Token")), body.run);
    return c.json(await reportProgress(db, t, body), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/task-cb/{id}/result",
    security: [],
    tags,
    summary: "The result: registers outputs and tech fields, task done",
    request: { params: idParam, body: jsonBody(resultBody) },
    responses: { 200: ok, ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    const t = await taskForCallback(db, c.req.valid("param").id, token(c.req.header("X-Task-Token")), body.run);
    const finished = await finishTask(db, c.env, t, body);
    // A page waiting for a rendition (a review guest's without a player) hears of it in the asset's live room.
    if (finished.status === "done" && body.outputs?.length) c.executionCtx.waitUntil(pushLive(c.env, renditionMessage(db, t.srcEntity)));
    return c.json(finished, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/task-cb/{id}/fail",
    security: [],
    tags,
    summary: "The task failed: error with its log",
    request: { params: idParam, body: jsonBody(failBody) },
    responses: { 200: ok, ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const body = c.req.valid("json");
    const t = await taskForCallback(db, c.req.valid("param").id, token(c.req.header("X-Task-Token")), body.run);
    return c.json(await failTask(db, c.env, t, body.error, body.lines), 200);
  },
);

/** The size OpenAI-compatible endpoints take in one request; the transcoder's pieces (120 s of 16 kHz mono) are far under it. */
const MAX_PIECE_BYTES = 25 * 1024 * 1024;
const transcriptionForm = z
  .object({
    file: z
      .instanceof(File, { message: "нужен файл (WAV, 16 кГц, моно)" })
      .refine((f) => f.size > 0 && f.size <= MAX_PIECE_BYTES, "файл пуст или больше 25 МБ")
      .openapi({ type: "string", format: "binary" }),
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/, "код языка ISO 639-1")
      .optional(),
  })
  .openapi("TaskAudioPiece");

app.openapi(
  createRoute({
    method: "post",
    path: "/task-cb/{id}/audio/transcriptions",
    security: [],
    tags,
    summary: "One audio piece of «Расшифровка» recognised by Workers AI; answers OpenAI's verbose_json",
    description:
      "Used when the Worker recognises through its AI binding (no TRANSCRIBE_URL): the transcoder sends each piece here " +
      "as it would to an OpenAI-compatible /v1/audio/transcriptions endpoint, with the run's token.",
    request: { params: idParam, query: z.object({ run }), body: { content: { "multipart/form-data": { schema: transcriptionForm } } } },
    responses: { 200: jsonContent(z.object({ text: z.string() }).passthrough()), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const t = await taskForCallback(db, c.req.valid("param").id, token(c.req.header("X-Task-Token")), c.req.valid("query").run);
    if (t.operationClass !== "transcribe") throw new ApiError("conflict", "Задача не распознаёт речь");
    if (!c.env.AI) throw new ApiError("unavailable", ASR_NOT_CONFIGURED);
    const form = c.req.valid("form");
    const wav = new Uint8Array(await form.file.arrayBuffer());
    return c.json(await recognizeWithBinding(c.env.AI, wav, form.language), 200);
  },
);

const outParams = idParam.extend({
  name: z
    .string()
    .regex(/^[a-z_]{1,32}$/, "имя выхода")
    .openapi({ param: { name: "name", in: "path" } }),
});
const outQuery = z.object({ run, exp: z.string().optional(), sig: z.string().optional() });
const uploadId = z.string().min(1, "обязательное поле").max(1024);

/** An output call: the URL's signature (task, run, output name) and then the run's token. */
async function outputTask(
  c: { env: Env; req: { header: (n: string) => string | undefined } },
  id: string,
  name: string,
  q: z.infer<typeof outQuery>,
) {
  if (!(await verifyUrl(c.env.JWT_SECRET, "task-out", `${id}:${q.run}:${name}`, q.exp, q.sig)))
    throw new ApiError("forbidden", "Ссылка недействительна или устарела");
  const db = getDb(c.env);
  return { db, t: await taskForCallback(db, id, token(c.req.header("X-Task-Token")), q.run) };
}

app.openapi(
  createRoute({
    method: "put",
    path: "/task-cb/{id}/out/{name}",
    security: [],
    tags,
    summary: "An output file (exact Content-Length, signed URL)",
    request: { params: outParams, query: outQuery },
    responses: { 200: jsonContent(z.object({ name: z.string(), size: z.number(), etag: z.string() })), ...errors },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    const { db, t } = await outputTask(c, id, name, c.req.valid("query"));
    const size = Number(c.req.header("Content-Length") ?? NaN);
    return c.json(await putOutput(db, c.env, t, name, size, c.req.header("Content-Type") ?? "", c.req.raw.body), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/task-cb/{id}/out/{name}/multipart",
    security: [],
    tags,
    summary: "Start an output in parts (over one request's size); same signed URL",
    request: {
      params: outParams,
      query: outQuery,
      body: jsonBody(z.object({ mime: z.string().min(3).max(100) }).openapi("TaskOutputStart")),
    },
    responses: { 200: jsonContent(z.object({ upload_id: z.string() })), ...errors },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    const { db, t } = await outputTask(c, id, name, c.req.valid("query"));
    return c.json(await startOutputParts(db, c.env, t, name, c.req.valid("json").mime), 200);
  },
);

app.openapi(
  createRoute({
    method: "put",
    path: "/task-cb/{id}/out/{name}/part/{part}",
    security: [],
    tags,
    summary: "One part of an output (exact Content-Length; all but the last the same size)",
    request: {
      params: outParams.extend({
        part: z.coerce
          .number({ error: "должно быть числом" })
          .int()
          .min(1, "части нумеруются с 1")
          .max(10_000)
          .openapi({ param: { name: "part", in: "path" } }),
      }),
      query: outQuery.extend({ upload_id: uploadId }),
    },
    responses: { 200: jsonContent(z.object({ part: z.number(), etag: z.string() })), ...errors },
  }),
  async (c) => {
    const { id, name, part } = c.req.valid("param");
    const q = c.req.valid("query");
    const { db, t } = await outputTask(c, id, name, q);
    const size = Number(c.req.header("Content-Length") ?? NaN);
    return c.json(await putOutputPart(db, c.env, t, name, q.upload_id, part, size, c.req.raw.body), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/task-cb/{id}/out/{name}/complete",
    security: [],
    tags,
    summary: "Assemble an output sent in parts",
    request: {
      params: outParams,
      query: outQuery,
      body: jsonBody(
        z
          .object({
            upload_id: uploadId,
            parts: z
              .array(z.object({ part: z.number().int().min(1), etag: z.string().min(1).max(200) }))
              .min(1, "список пуст")
              .max(10_000),
          })
          .openapi("TaskOutputComplete"),
      ),
    },
    responses: { 200: jsonContent(z.object({ name: z.string(), size: z.number(), etag: z.string() })), ...errors },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    const { db, t } = await outputTask(c, id, name, c.req.valid("query"));
    const body = c.req.valid("json");
    return c.json(await completeOutputParts(db, c.env, t, name, body.upload_id, body.parts), 200);
  },
);

export default app;
