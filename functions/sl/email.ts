import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { sendMailRecorded } from "../lib/mail";
import { maskedLinkId } from "./tokens";

/**
 * Mails a share link to its recipients (functions/lib/mail.ts: the email binding, else the console). Either way the sending is an event row. A failed send
 * never fails the link's creation: the creator can copy the link by hand, and the event says what happened.
 * The link is the capability, so the console gets it masked (logs are read by more people, and kept longer,
 * than the link should reach); the creator has the full link in the app.
 */
export async function mailLink(
  db: Db,
  env: Env,
  opts: { linkId: string; url: string; assetName: string; to: string[]; senderId: string; senderName: string; subject?: string },
) {
  if (opts.to.length === 0) return;
  // A review link (decision 061) brings its own subject: the sender asks for approval rather than shares.
  const subject = opts.subject ?? `${opts.senderName} поделился(-ась) файлом «${opts.assetName}»`;
  const text = `${subject}.\n\nОткрыть: ${opts.url}\n\nЕсли ссылка защищена паролем, спросите его у отправителя.`;
  const masked = opts.url.replace(opts.linkId, maskedLinkId(opts.linkId));
  await sendMailRecorded(
    db,
    env,
    { to: opts.to, subject, text, logText: `Link: ${masked}` },
    { kind: "share-link.email", userId: opts.senderId, entityType: "share_link", entityId: opts.linkId },
  );
}
