import type { Env } from "../functions/lib/env";
import type { JobMessage } from "./messages";

type Handler = (msg: JobMessage, env: Env) => Promise<void>;

/** One handler per message type; a type with no handler is a deploy mismatch, so it is retried, not lost. */
const handlers: Record<JobMessage["type"], Handler> = {
  ping: async () => {},
  // Acknowledged until the jobs issue consumes it (previews, proxies, metadata).
  "upload-finished": async () => {},
};

export async function handleQueue(batch: MessageBatch<JobMessage>, env: Env) {
  for (const message of batch.messages) {
    const handler = handlers[message.body?.type as JobMessage["type"]];
    if (!handler) {
      console.error("No handler for queue message", message.body);
      message.retry();
      continue;
    }
    try {
      await handler(message.body, env);
      message.ack();
    } catch (err) {
      console.error("Queue handler failed", message.body.type, err);
      message.retry({ delaySeconds: Math.min(300, 2 ** message.attempts * 5) });
    }
  }
}
