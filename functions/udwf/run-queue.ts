import type { JobMessage } from "../../queues/messages";
import { configOf } from "../lib/config";
import type { Env } from "../lib/env";

/** Runs go on the JOBS queue in batches of the queue's limit; a run retried waits longer each time. */

/** Backoff of a run's retries: UDWF_RETRY_BASE_SECONDS (default 5) × 2^(attempt-1), at most 5 minutes. */
export const udwfRetryDelay = (env: Env, attempts: number) =>
  Math.min(300, configOf(env).UDWF_RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));

export async function sendRuns(env: Env, runIds: string[], delaySeconds?: number) {
  for (let i = 0; i < runIds.length; i += 100) {
    const msgs = runIds.slice(i, i + 100).map((runId) => ({ body: { type: "udwf-run", runId } as JobMessage, delaySeconds }));
    await env.JOBS.sendBatch(msgs);
  }
}
