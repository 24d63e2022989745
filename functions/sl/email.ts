import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { eventInsert } from "../lib/events";
import { mailVia, sendMail } from "../lib/mail";
import { maskedLinkId } from "./tokens";

/**
 * Mails a share link to its recipients: through the Cloudflare email binding when one is configured
 * (production), otherwise to the console (local). Either way the sending is an event row. A failed send
 * never fails the link's creation: the creator can copy the link by hand, and the event says what happened.
 * The link is the capability, so the console gets it masked (logs are read by more people, and kept longer,
 * than the link should reach); the creator has the full link in the app.
 */
export async function mailLink(
  db: Db,
  env: Env,
  opts: { linkId: string; url: string; assetName: string; to: string[]; senderId: string; senderName: string },
) {
  if (opts.to.length === 0) return;
  const subject = `${opts.senderName} поделился(-ась) файлом «${opts.assetName}»`;
  const text = `${subject}.\n\nОткрыть: ${opts.url}\n\nЕсли ссылка защищена паролем, спросите его у отправителя.`;
  const results: { to: string; ok: boolean; error?: string }[] = [];
  for (const to of opts.to) {
    try {
      await sendMail(env, { to, subject, text, logged: `Link: ${opts.url.replace(opts.linkId, maskedLinkId(opts.linkId))}` });
      results.push({ to, ok: true });
    } catch (err) {
      results.push({ to, ok: false, error: String(err) });
    }
  }
  await eventInsert(db, {
    kind: "share-link.email",
    userId: opts.senderId,
    entityType: "share_link",
    entityId: opts.linkId,
    data: { via: mailVia(env), results },
  }).run();
}
