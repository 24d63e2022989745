import { and, eq, sql } from "drizzle-orm";
import { type UdwfErrorClass, type UdwfRun, udwfRuns } from "../../db/schema";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { StepError } from "./step-error";

/**
 * A run that fails is never left `queued` or `running` with nothing to show (docs/decisions/054): every failed try is
 * counted on the run with its last error and that error's class, so the runs screen says «повтор N из M»; after the
 * last retry the dead-letter consumer fails the run, keeping them.
 */

/** The job queue's max_retries (wrangler.toml, [[queues.consumers]] of mam-jobs); a unit test keeps them equal. */
export const QUEUE_MAX_RETRIES = 5;

/** Retries a run gets: the queue's, plus one for an event-started run, whose first try is in the dispatching invocation. */
export const retriesAllowed = (run: Pick<UdwfRun, "input">) => QUEUE_MAX_RETRIES + (run.input.source === "event" ? 1 : 0);

/** A missing right or object is `denied` (no retry mends it), a step's own failure `step`, anything else a bug. */
export function errorClassOf(err: unknown): UdwfErrorClass {
  if (err instanceof ApiError || (err instanceof StepError && !err.retry)) return "denied";
  if (err instanceof StepError) return "step";
  return "internal";
}

/** The message a bug leaves on its run (a step's failure is named by its step instead): its first line, at most 300 characters. */
export const internalError = (err: unknown) =>
  `Внутренняя ошибка: ${(err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 300)}`;

/** One more failed try of a run still under way: counted, with its error, in the same statement. */
export const retryNoted = (db: Db, runId: string, error: string, errorClass: UdwfErrorClass) =>
  db
    .update(udwfRuns)
    .set({ retries: sql`${udwfRuns.retries} + 1`, error, errorClass })
    .where(and(eq(udwfRuns.runId, runId), sql`${udwfRuns.status} NOT IN ('done', 'failed', 'stopped')`));
