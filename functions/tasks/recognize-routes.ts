import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/transcripts/contract";
import { startRecognition } from "./recognize";

/**
 * POST /api/transcripts/{asset_id}/recognize (defined in shared/transcripts/contract.ts), mounted next to
 * transcripts' routes (functions/index.ts): starting a recognition is a task, and tasks lie above transcripts (their
 * results are saved there), so transcripts do not import tasks back (docs/decisions/067-folder-boundaries.md).
 */
const app = createApp();

app.openapi(r.recognize, async (c) =>
  c.json(await startRecognition(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").asset_id, c.req.valid("json")), 200),
);

export default app;
