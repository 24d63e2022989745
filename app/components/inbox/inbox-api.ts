import type { InboxItem, InboxOut } from "../../../shared/review/inbox-schemas";
import { VIRTUAL_ROOT_ID } from "../../../shared/lib/constants";
import * as review from "../../../shared/review/contract";
import { call } from "../../lib/api";

/** «Входящие» (docs/decisions/061-review-and-approval.md): the caller's mentions and review requests. */

export type { InboxItem, InboxOut };

export const INBOX_PAGE = 20;

export const listInbox = (skip: number, take: number, signal?: AbortSignal) => call(review.inbox, { query: { skip, take }, signal });

export const markRead = (body: { ids: string[] } | { all: true }) => call(review.markInboxRead, { body });

/** The navigation's count of unread items; null when it could not be read (the navigation shows no count then). */
export async function unreadCount(signal?: AbortSignal): Promise<number | null> {
  try {
    return (await listInbox(0, 1, signal)).unread;
  } catch (error) {
    if (!signal?.aborted) console.error(error);
    return null;
  }
}

/**
 * The viewer at the item's moment: its group (the root when none is readable), its version, and `t` at the
 * comment's exact seconds, which the viewer seeks to (the start of the comment's frame at its own rate).
 */
export function viewerPathOf(item: InboxItem): string {
  const q = new URLSearchParams({ v: String(item.version) });
  if (item.at && item.at.seconds > 0) q.set("t", String(item.at.seconds));
  return `/mam/${item.group_id ?? VIRTUAL_ROOT_ID}/asset/${item.asset_id}?${q}`;
}
