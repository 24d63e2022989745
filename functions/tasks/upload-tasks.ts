import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import { tasks, taskTemplates, variants } from "../../db/schema";
import type { JobMessage } from "../../queues/messages";
import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { createTasks } from "./commands";
import { ensureDefaultTemplates } from "./defaults";
import { appliesTo } from "../../shared/tasks/schemas";

type UploadFinished = Extract<JobMessage, { type: "upload-finished" }>;

/** Variant types that come from people; proxies and watermarks a task made start nothing (no proxies of proxies). */
const sourceTypes = ["initial", "master", "untyped"];

/**
 * The upload-finished consumer: starts every enabled template whose setup.on_upload matches the
 * file's type. Idempotent: tasks carry a dedupe key (variant + template), and every queued task of
 * the variant not yet handed over gets a run message, so a redelivery after a crash between the
 * insert and the send still starts them, and a plain redelivery makes nothing twice.
 */
export async function startUploadTasks(env: Env, msg: UploadFinished) {
  if (!sourceTypes.includes(msg.variantType)) return;
  const db = getDb(env);
  const variant = await db.select().from(variants).where(eq(variants.variantId, msg.variantId)).get();
  if (!variant) return; // replaced or deleted since: nothing to process
  await ensureDefaultTemplates(db);
  const mime = variant.mimeType.toLowerCase();
  const templates = (await db.select().from(taskTemplates).where(eq(taskTemplates.disabled, false))).filter((t) => {
    const on = Array.isArray(t.setup.on_upload) ? (t.setup.on_upload as string[]) : [];
    return on.some((prefix) => mime.startsWith(prefix)) && appliesTo(t.operationClass, mime);
  });
  if (templates.length === 0) return;
  const dedupe = (templateId: string) => `upload:${variant.variantId}:${templateId}`;
  await createTasks(
    db,
    templates.map((template) => ({
      template,
      assetId: variant.assetId,
      version: variant.version,
      variantId: variant.variantId,
      owner: msg.userId,
      dedupeKey: dedupe(template.templateId),
    })),
    msg.userId,
  );
  const waiting = await db
    .select({ jobId: tasks.jobId })
    .from(tasks)
    .where(
      and(
        eq(tasks.srcEntity, variant.variantId),
        eq(tasks.status, "inqueue"),
        isNull(tasks.workerInfo),
        inArray(
          tasks.dedupeKey,
          templates.map((t) => dedupe(t.templateId)),
        ),
      ),
    );
  if (waiting.length) await env.JOBS.sendBatch(waiting.map((w) => ({ body: { type: "task-run" as const, jobId: w.jobId } })));
}

/**
 * For the cron (functions/system/housekeeping.ts): queued tasks never handed over — created while no
 * TRANSCODER_URL was set, or whose message was lost — get a run message. Handing over is idempotent.
 */
export async function sweepWaitingTasks(env: Env, olderThanSeconds = 120) {
  const db = getDb(env);
  const cutoff = Math.floor(Date.now() / 1000) - olderThanSeconds;
  const rows = await db
    .select({ jobId: tasks.jobId })
    .from(tasks)
    .where(and(eq(tasks.status, "inqueue"), isNull(tasks.workerInfo), lt(tasks.mtime, cutoff)))
    .limit(100);
  if (rows.length) await env.JOBS.sendBatch(rows.map((r) => ({ body: { type: "task-run" as const, jobId: r.jobId } })));
  return rows.length;
}
