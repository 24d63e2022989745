import { getDb } from "../functions/lib/db";
import type { Env } from "../functions/lib/env";
import { failTaskForGood, runTask } from "../functions/tasks/dispatch";
import { startUploadTasks } from "../functions/tasks/upload-tasks";
import { importUploadedSubtitles } from "../functions/transcripts/from-upload";
import { dispatchEvents } from "../functions/udwf/dispatch";
import { udwfRetryDelay } from "../functions/udwf/run-queue";
import { failRunForGood, runWorkflow } from "../functions/udwf/runner";
import type { JobMessage } from "./messages";

type Handler = (msg: JobMessage, env: Env, attempts: number) => Promise<void>;

/** The dead-letter queue (wrangler.toml): messages that failed max_retries times end up here. */
export const deadLetterQueue = "mam-jobs-dead";

/** One handler per message type; a type with no handler is a deploy mismatch, so it is retried, not lost. */
const handlers: Record<JobMessage["type"], Handler> = {
  ping: async () => {},
  "upload-finished": async (msg, env) => {
    const m = msg as Extract<JobMessage, { type: "upload-finished" }>;
    await startUploadTasks(env, m);
    // A subtitle file uploaded with a video becomes its transcript (idempotent: a redelivery imports the same cues).
    await importUploadedSubtitles(getDb(env), env, m.variantId, m.userId);
  },
  "task-run": (msg, env, attempts) => {
    const m = msg as Extract<JobMessage, { type: "task-run" }>;
    return runTask(env, m.jobId, m.run, attempts);
  },
  "udwf-run": (msg, env) => runWorkflow(env, (msg as Extract<JobMessage, { type: "udwf-run" }>).runId),
};

/** Exponential backoff: base, 2×base, 4×base… (TASK_RETRY_BASE_SECONDS, default 5 s), at most 5 minutes. */
export const retryDelay = (env: Env, attempts: number) =>
  Math.min(300, Number(env.TASK_RETRY_BASE_SECONDS ?? 5) * 2 ** Math.max(0, attempts - 1));

/**
 * The messages of a batch are handled side by side: an upload's tasks arrive as one batch of task-run
 * messages, and handing them over one after another would start the last one's ffmpeg a few round trips
 * late. Each message is acked or retried on its own; the transcoder still orders what it holds by priority.
 */
export async function handleQueue(batch: MessageBatch<JobMessage>, env: Env) {
  if (batch.queue === deadLetterQueue) return handleDead(batch, env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const handler = handlers[message.body?.type as JobMessage["type"]];
      if (!handler) {
        console.error("No handler for queue message", message.body);
        message.retry();
        return;
      }
      try {
        await handler(message.body, env, message.attempts);
        message.ack();
      } catch (err) {
        console.error("Queue handler failed", message.body.type, (err as Error).message);
        const delay = message.body.type === "udwf-run" ? udwfRetryDelay(env, message.attempts) : retryDelay(env, message.attempts);
        message.retry({ delaySeconds: delay });
      }
    }),
  );
  // What the batch changed (tasks finished, automation steps) may start automations.
  await dispatchEvents(env).catch((err) => console.error("automations dispatch:", (err as Error).message));
}

/** A task whose hand-over kept failing ends in error with its log; anything else is logged and dropped. */
async function handleDead(batch: MessageBatch<JobMessage>, env: Env) {
  for (const message of batch.messages) {
    const body = message.body;
    try {
      if (body?.type === "task-run") {
        await failTaskForGood(env, body.jobId, "Транскодер недоступен: все повторы передачи исчерпаны (попытки — в журнале выше)");
      } else if (body?.type === "udwf-run") {
        await failRunForGood(env, body.runId);
      } else {
        console.error("Dead-lettered queue message", body);
      }
      message.ack();
    } catch (err) {
      console.error("Dead-letter handler failed", (err as Error).message);
      message.retry({ delaySeconds: 30 });
    }
  }
}
