import { Webhook } from "standardwebhooks";
import type { Env } from "../lib/env";
import { StepError } from "./step-error";

/**
 * The webhook.call action: a JSON POST signed per Standard Webhooks (webhook-id, webhook-timestamp,
 * webhook-signature "v1,<base64 HMAC-SHA256>"). The id is the run id and step index, the same on every retry, so
 * a receiver can drop repeats. Outside `npm start` (WEBHOOK_ALLOW_PRIVATE=true) loopback and private addresses
 * are refused: a workflow must not reach into the network the Worker runs in.
 */

const privateHost = [
  /^localhost$/i,
  /\.(localhost|local|internal|lan|home)$/i,
  /^127\./,
  /^10\./,
  /^192\.168\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^169\.254\./,
  /^0\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
  /^\[?(::1?|f[cd][0-9a-f]{2}:.*|fe80:.*|::ffff:.*)\]?$/i,
];

/** Why the URL may not be called (in Russian, for the run log), or null. */
export function privateUrlReason(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "не адрес URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "только http(s)-адрес";
  if (allowPrivate) return null;
  const host = url.hostname;
  return privateHost.some((re) => re.test(host)) ? "адрес во внутренней сети запрещён (WEBHOOK_ALLOW_PRIVATE)" : null;
}

export const allowsPrivate = (env: Pick<Env, "WEBHOOK_ALLOW_PRIVATE">) => env.WEBHOOK_ALLOW_PRIVATE === "true";

export interface WebhookAnswer {
  status: number;
  body: string;
}

/** POSTs the payload, signed; answers the receiver's status and the start of its body. Throws on a network error. */
export async function callWebhook(
  env: Pick<Env, "WEBHOOK_ALLOW_PRIVATE">,
  opts: { url: string; secret: string; msgId: string; payload: unknown },
): Promise<WebhookAnswer> {
  const refused = privateUrlReason(opts.url, allowsPrivate(env));
  if (refused) throw new StepError(refused);
  const body = JSON.stringify(opts.payload);
  const now = new Date();
  const signature = new Webhook(opts.secret).sign(opts.msgId, now, body);
  const res = await fetch(opts.url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "webhook-id": opts.msgId,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": signature,
    },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.text()).slice(0, 500) };
}
