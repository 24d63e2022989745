import type { Env } from "./env";

/**
 * Sends one plain-text mail through the Cloudflare email binding when one is configured (production); without
 * it (locally) the mail goes to the console. `logged` is what the console shows instead of the text (share links
 * mask their secret there). Throws what the binding throws.
 */
export async function sendMail(env: Pick<Env, "EMAIL" | "EMAIL_FROM">, m: { to: string; subject: string; text: string; logged?: string }) {
  if (env.EMAIL) await env.EMAIL.send({ from: env.EMAIL_FROM ?? "noreply@mam.local", to: m.to, subject: m.subject, text: m.text });
  else console.log(`[email] to ${m.to}\nSubject: ${m.subject}\n${m.logged ?? m.text} (not mailed: no EMAIL binding)`);
}

export const mailVia = (env: Pick<Env, "EMAIL">) => (env.EMAIL ? "email-binding" : "console");
