import { configOf } from "./config";
import type { Db } from "./db";
import type { Env } from "./env";
import { type EventInput, eventInsert } from "./events";

export interface MailResult {
  to: string;
  ok: boolean;
  error?: string;
}

/**
 * The project's one mail path: the Cloudflare email binding when configured (production), otherwise the
 * console (local). `logText` is what the console gets instead of the body: mails carry capabilities
 * (link ids) that logs must not. Never throws: callers record the results as an event.
 */
export async function sendMail(env: Env, to: string[], subject: string, text: string, logText: string): Promise<MailResult[]> {
  const results: MailResult[] = [];
  for (const address of to) {
    try {
      if (env.EMAIL) await env.EMAIL.send({ from: configOf(env).EMAIL_FROM, to: address, subject, text });
      else console.log(`[email] to ${address}\nSubject: ${subject}\n${logText} (not mailed: no EMAIL binding)`);
      results.push({ to: address, ok: true });
    } catch (err) {
      results.push({ to: address, ok: false, error: String(err) });
    }
  }
  return results;
}

export const mailVia = (env: Env) => (env.EMAIL ? "email-binding" : "console");

/** sendMail, then its results as the event row of that mailing (`data: { via, results }`). Never throws for a failed send. */
export async function sendMailRecorded(
  db: Db,
  env: Env,
  mail: { to: string[]; subject: string; text: string; logText: string },
  event: Omit<EventInput, "data">,
) {
  const results = await sendMail(env, mail.to, mail.subject, mail.text, mail.logText);
  await eventInsert(db, { ...event, data: { via: mailVia(env), results } }).run();
}
