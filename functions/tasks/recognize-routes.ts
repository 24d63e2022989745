import { createRoute } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { errorResponse, errorAnswers, createApp, jsonBody, jsonContent } from "../lib/openapi";
import { assetParam, recognizeBody, recognizeOut } from "../transcripts/schemas";
import { startRecognition } from "./recognize";

/**
 * POST /api/transcripts/{asset_id}/recognize, mounted next to transcripts' routes (functions/index.ts): starting a
 * recognition is a task, and tasks lie above transcripts (their results are saved there), so transcripts do not
 * import tasks back (docs/decisions/067-folder-boundaries.md).
 */
const app = createApp();
const tags = ["transcripts"];
const errors = errorAnswers({ 403: "Lacks update on the asset", 404: "Not found, not readable, or the version has no transcript" });

app.openapi(
  createRoute({
    method: "post",
    path: "/{asset_id}/recognize",
    tags,
    summary: "Start the task «Расшифровка» on a version (update on the asset); 503 when no recogniser is configured",
    request: { params: assetParam, body: jsonBody(recognizeBody) },
    responses: { 200: jsonContent(recognizeOut), ...errors, 503: errorResponse("No recogniser configured") },
  }),
  async (c) => c.json(await startRecognition(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").asset_id, c.req.valid("json")), 200),
);

export default app;
