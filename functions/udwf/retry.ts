import { eq } from "drizzle-orm";
import { udwfRuns } from "../../db/schema";
import { getDb } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { sendRuns } from "./run-queue";
import { loadWorkflow } from "./service";

/**
 * «Повторить» on a failed run (docs/decisions/054): the run goes back to the queue with its retries counted from
 * zero; the steps that were done stay done (their effects are not repeated), the failed one is claimed again. Those
 * who may start the workflow may do this; the run still acts with the rights it was started with, and within the
 * retrier's too (`retried_by`, ./acting.ts), as a manual run acts within its caller's.
 */
export async function retryRun(env: Env, auth: AuthUser, runId: string) {
  const db = getDb(env);
  const run = await db.select().from(udwfRuns).where(eq(udwfRuns.runId, runId)).get();
  if (!run) throw new ApiError("not_found", "Запуск не найден");
  try {
    await loadWorkflow(db, auth, run.workflowId, "edit");
  } catch (err) {
    // Someone the workflow is not shared with learns nothing of its runs.
    if (err instanceof ApiError && err.code === "not_found") throw new ApiError("not_found", "Запуск не найден");
    throw err;
  }
  if (run.status !== "failed") throw new ApiError("conflict", "Повторить можно только запуск, который завершился ошибкой");
  await db.batch([
    db
      .update(udwfRuns)
      .set({
        status: "queued",
        error: null,
        errorClass: null,
        retries: 0,
        finishedAt: null,
        input: { ...run.input, retried_by: auth.userId },
      })
      .where(eq(udwfRuns.runId, runId)),
    eventInsert(db, {
      kind: "workflow.run-retry",
      userId: auth.userId,
      entityType: "workflow",
      entityId: run.workflowId,
      data: { run: runId },
    }),
  ]);
  await sendRuns(env, [runId]);
  return { run_id: runId };
}
