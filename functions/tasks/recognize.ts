import { ensureDefaultTemplates, TRANSCRIBE_TEMPLATE_ID } from "./defaults";
import { createTasks, sourceVariant } from "./commands";
import { appliesTo } from "../../shared/tasks/schemas";
import { loadTemplate } from "./templates";
import { requireAccess } from "../lib/access";
import { configOf } from "../lib/config";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { causeData } from "../lib/events";
import { resolveVersion } from "../transcripts/service";

export const NOT_CONFIGURED = "Распознавание речи не настроено";

/**
 * Starts the task «Расшифровка» on a version (update on the asset: its result replaces the version's transcript).
 * The transcoder does the work (transcoder/ops/transcribe.mjs) and its result is saved with source asr
 * (callbacks.ts). Without a recogniser (neither TRANSCRIBE_URL nor the AI binding) it answers 503,
 * so the button can say so.
 */
export async function startRecognition(db: Db, env: Env, auth: AuthUser, assetId: string, body: { language?: string; version?: number }) {
  await requireAccess(db, auth, "update", [assetId], { types: ["asset"] });
  // An endpoint (TRANSCRIBE_URL) wins over the AI binding; with neither, nothing can recognise.
  if (!configOf(env).TRANSCRIBE_URL && !env.AI) throw new ApiError("unavailable", NOT_CONFIGURED);
  const version = await resolveVersion(db, assetId, body.version);
  await ensureDefaultTemplates(db);
  const template = await loadTemplate(db, TRANSCRIBE_TEMPLATE_ID);
  if (!template || template.disabled) throw new ApiError("unavailable", "Шаблон задачи «Расшифровка» отключён");
  const src = await sourceVariant(db, assetId, version);
  if (!src) throw new ApiError("validation", "У версии нет содержимого", [{ field: "version", message: "нет содержимого" }]);
  if (!appliesTo("transcribe", src.mimeType))
    throw new ApiError("validation", "Расшифровка — только для видео и аудио", [{ field: "asset_id", message: `тип ${src.mimeType}` }]);
  // The request's language goes with this task only; the recogniser takes the primary subtag (ru, en).
  const language = body.language?.split("-")[0];
  // Started by an automation: the task keeps the run as its cause, so the transcript it saves carries it
  // (functions/tasks/callbacks.ts) and does not start that workflow again on transcript.ready.
  const { udwf } = causeData();
  const setup = { ...template.setup, ...(language ? { language } : {}), ...(udwf ? { udwf } : {}) };
  const [task] = await createTasks(
    db,
    [{ template: { ...template, setup }, assetId, version, variantId: src.variantId, owner: auth.userId }],
    auth.userId,
  );
  if (!task) throw new ApiError("internal", "Задача не создана");
  await env.JOBS.send({ type: "task-run", jobId: task.jobId });
  return { job_id: task.jobId, version, status: task.status };
}
