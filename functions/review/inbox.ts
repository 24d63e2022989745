import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { assets, groupMembers, groups, reviewComments, reviewInbox } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, permissionsOn, resolveObjects } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { newId } from "../lib/ids";
import { idList } from "../lib/sql";
import { userNames } from "./common";
import type { InboxItem, InboxOut, InboxRead } from "../../shared/review/inbox-schemas";
import { secondsOf, timecode } from "../../shared/review/timecode";

/**
 * «Входящие» (docs/decisions/061-review-and-approval.md): a row per mention of a user in a review comment and per
 * request asking them to approve a version, written in the batch that stores the comment or the request. Only the
 * caller's own rows are ever read or marked; a row whose asset the caller can no longer read is not shown (nor
 * counted), and a mention whose comment was deleted goes with it.
 */

/** The inbox rows of a new comment: one per mentioned user (already filtered to readers other than the author). */
export const mentionRows = (
  db: Db,
  c: { commentId: string; assetId: string; version: number; actorId: string; userIds: string[]; now: number },
) =>
  c.userIds.map((userId) =>
    db.insert(reviewInbox).values({
      itemId: newId(),
      userId,
      kind: "mention",
      assetId: c.assetId,
      version: c.version,
      commentId: c.commentId,
      actorId: c.actorId,
      ctime: c.now,
    }),
  );

/** The inbox rows of a request: one per reviewer newly asked (the requester does not ask themselves). */
export const requestRows = (
  db: Db,
  r: { requestId: string; assetId: string; version: number; actorId: string; userIds: string[]; now: number },
) =>
  r.userIds
    .filter((u) => u !== r.actorId)
    .map((userId) =>
      db.insert(reviewInbox).values({
        itemId: newId(),
        userId,
        kind: "request",
        assetId: r.assetId,
        version: r.version,
        requestId: r.requestId,
        actorId: r.actorId,
        ctime: r.now,
      }),
    );

/** The caller's rows that are shown: newest first, of assets it can read now, mentions only while their comment exists. */
async function visibleRows(db: Db, auth: AuthUser) {
  const rows = await db
    .select({ itemId: reviewInbox.itemId, assetId: reviewInbox.assetId, readAt: reviewInbox.readAt })
    .from(reviewInbox)
    .leftJoin(reviewComments, eq(reviewComments.commentId, reviewInbox.commentId))
    .where(and(eq(reviewInbox.userId, auth.userId), or(eq(reviewInbox.kind, "request"), sql`${reviewComments.commentId} IS NOT NULL`)))
    .orderBy(desc(reviewInbox.ctime), desc(sql`"review_inbox"."rowid"`));
  if (!rows.length) return rows;
  const [ctx, objects] = await Promise.all([accessContext(db, auth), resolveObjects(db, [...new Set(rows.map((r) => r.assetId))])]);
  const readable = new Set([...objects.values()].filter((o) => o.type === "asset" && permissionsOn(ctx, o)).map((o) => o.id));
  return rows.filter((r) => readable.has(r.assetId));
}

/** For each asset, a live group it is in that the caller can read (the viewer's address names one); null when none. */
async function groupsOf(db: Db, auth: AuthUser, assetIds: string[]): Promise<Map<string, string>> {
  if (!assetIds.length) return new Map();
  const rows = await db
    .select({ assetId: groupMembers.elId, groupId: groupMembers.groupId })
    .from(groupMembers)
    .innerJoin(groups, and(eq(groups.groupId, groupMembers.groupId), isNull(groups.deletedAt)))
    .where(and(inArray(groupMembers.elId, idList(assetIds)), eq(groupMembers.elType, "asset")));
  const [ctx, objects] = await Promise.all([accessContext(db, auth), resolveObjects(db, [...new Set(rows.map((r) => r.groupId))])]);
  const out = new Map<string, string>();
  for (const r of rows) {
    const g = objects.get(r.groupId);
    if (!out.has(r.assetId) && g && permissionsOn(ctx, g)) out.set(r.assetId, r.groupId);
  }
  return out;
}

export async function listInbox(db: Db, auth: AuthUser, skip: number, take: number): Promise<InboxOut> {
  const visible = await visibleRows(db, auth);
  const page = visible.slice(skip, skip + take);
  const unread = visible.filter((r) => r.readAt === null).length;
  if (!page.length) return { items: [], total: visible.length, unread };
  const rows = await db
    .select({ item: reviewInbox, comment: reviewComments, assetName: assets.name })
    .from(reviewInbox)
    .leftJoin(reviewComments, eq(reviewComments.commentId, reviewInbox.commentId))
    .leftJoin(assets, eq(assets.assetId, reviewInbox.assetId))
    .where(inArray(reviewInbox.itemId, idList(page.map((p) => p.itemId))));
  const byId = new Map(rows.map((r) => [r.item.itemId, r]));
  const [names, places] = await Promise.all([
    userNames(
      db,
      rows.map((r) => r.item.actorId).filter((u): u is string => !!u),
    ),
    groupsOf(db, auth, [...new Set(page.map((p) => p.assetId))]),
  ]);
  const items: InboxItem[] = page.map((p) => {
    const { item, comment, assetName } = byId.get(p.itemId)!;
    const c = comment;
    const rate = c?.frame !== null && c?.frame !== undefined && c.fpsNum && c.fpsDen ? { num: c.fpsNum, den: c.fpsDen } : null;
    return {
      item_id: item.itemId,
      kind: item.kind,
      asset_id: item.assetId,
      asset_name: assetName ?? "",
      group_id: places.get(item.assetId) ?? null,
      version: item.version,
      comment_id: item.commentId,
      request_id: item.requestId,
      actor: { user_id: item.actorId, name: item.actorId ? (names.get(item.actorId) ?? null) : null },
      body: c?.body ?? null,
      at:
        c && rate
          ? {
              frame: c.frame!,
              fps_num: rate.num,
              fps_den: rate.den,
              seconds: secondsOf(c.frame!, rate),
              timecode: timecode(c.frame!, rate),
            }
          : null,
      ctime: item.ctime,
      read: item.readAt !== null,
    };
  });
  return { items, total: visible.length, unread };
}

/** Marks the caller's items read (the given ones, or all); ids that are not the caller's change nothing. */
export async function markInboxRead(db: Db, auth: AuthUser, b: InboxRead) {
  const mine = and(eq(reviewInbox.userId, auth.userId), isNull(reviewInbox.readAt));
  const where = b.ids ? and(mine, inArray(reviewInbox.itemId, idList(b.ids))) : mine;
  const changed = await db.update(reviewInbox).set({ readAt: nowSeconds() }).where(where).returning({ id: reviewInbox.itemId });
  const unread = (await visibleRows(db, auth)).filter((r) => r.readAt === null).length;
  return { marked: changed.length, unread };
}
