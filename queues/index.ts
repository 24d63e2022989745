import { configOf } from "../functions/lib/config";
import { getDb } from "../functions/lib/db";
import type { Env } from "../functions/lib/env";
import { failTaskForGood, runTask } from "../functions/tasks/dispatch";
import { startUploadTasks } from "../functions/tasks/upload-tasks";
import { importUploadedSubtitles } from "../functions/transcripts/from-upload";
import { dispatchEvents } from "../functions/udwf/dispatch";
import { udwfRetryDelay } from "../functions/udwf/run-queue";
import { failRunForGood, runWorkflow } from "../functions/udwf/runner";
import type { JobMessage, JobMessageType } from "./messages";

/** The dead-letter queue (wrangler.toml): messages that failed max_retries times end up here. */
export const deadLetterQueue = "mam-jobs-dead";

/**
 * What the consumer does with one message type: `run` it (a throw retries it), wait `retryDelay` seconds before
 * the next attempt, and `onDead` once it reached the dead-letter queue after max_retries (its work ends for good).
 * Methods, not function properties: a handler of one type then stands for a handler of the union.
 */
interface JobHandler<M extends JobMessage> {
  run(message: M, env: Env, attempts: number): Promise<void>;
  retryDelay(env: Env, attempts: number): number;
  onDead(message: M, env: Env): Promise<void>;
}

/** Exponential backoff: base, 2×base, 4×base… (TASK_RETRY_BASE_SECONDS, default 5 s), at most 5 minutes. */
export const retryDelay = (env: Env, attempts: number) =>
  Math.min(300, configOf(env).TASK_RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));

/** Nothing to end: the message's work is idempotent or expendable, so a dead one is only logged. */
const logDead = async (message: JobMessage) => console.error("Dead-lettered queue message", message);

/** One entry per message type: the compiler refuses a type of messages.ts without one. */
const jobHandlers: { [T in JobMessageType]: JobHandler<Extract<JobMessage, { type: T }>> } = {
  ping: { run: async () => {}, retryDelay, onDead: logDead },
  "upload-finished": {
    async run(message, env) {
      await startUploadTasks(env, message);
      // A subtitle file uploaded with a video becomes its transcript (idempotent: a redelivery imports the same cues).
      await importUploadedSubtitles(getDb(env), env, message.variantId, message.userId);
    },
    retryDelay,
    onDead: logDead,
  },
  "task-run": {
    run: (message, env, attempts) => runTask(env, message.jobId, message.run, attempts),
    retryDelay,
    // A task whose hand-over kept failing ends in error with its log.
    onDead: (message, env) =>
      failTaskForGood(env, message.jobId, "Транскодер недоступен: все повторы передачи исчерпаны (попытки — в журнале выше)"),
  },
  "udwf-run": {
    run: (message, env) => runWorkflow(env, message.runId),
    retryDelay: udwfRetryDelay,
    onDead: (message, env) => failRunForGood(env, message.runId),
  },
};

/** The handler of a message's type; none for a type this deploy does not know (a deploy mismatch). */
const handlerOf = (body: JobMessage | undefined): JobHandler<JobMessage> | undefined =>
  body && Object.hasOwn(jobHandlers, body.type) ? jobHandlers[body.type] : undefined;

/**
 * The messages of a batch are handled side by side: an upload's tasks arrive as one batch of task-run
 * messages, and handing them over one after another would start the last one's ffmpeg a few round trips
 * late. Each message is acked or retried on its own; the transcoder still orders what it holds by priority.
 */
export async function handleQueue(batch: MessageBatch<JobMessage>, env: Env) {
  if (batch.queue === deadLetterQueue) return handleDead(batch, env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const handler = handlerOf(message.body);
      if (!handler) {
        // Retried, not lost: the deploy that knows the type may be on its way.
        console.error("No handler for queue message", message.body);
        message.retry();
        return;
      }
      try {
        await handler.run(message.body, env, message.attempts);
        message.ack();
      } catch (err) {
        console.error("Queue handler failed", message.body.type, (err as Error).message);
        message.retry({ delaySeconds: handler.retryDelay(env, message.attempts) });
      }
    }),
  );
  // What the batch changed (tasks finished, automation steps) may start automations.
  await dispatchEvents(env).catch((err) => console.error("automations dispatch:", (err as Error).message));
}

/** Each dead message ends as its type says; one of an unknown type is logged and dropped. */
async function handleDead(batch: MessageBatch<JobMessage>, env: Env) {
  for (const message of batch.messages) {
    try {
      const handler = handlerOf(message.body);
      await (handler ? handler.onDead(message.body, env) : logDead(message.body));
      message.ack();
    } catch (err) {
      console.error("Dead-letter handler failed", (err as Error).message);
      message.retry({ delaySeconds: 30 });
    }
  }
}
