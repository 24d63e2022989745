import { and, eq, inArray, isNull } from "drizzle-orm";
import { shareLinks, shopOrderItems, shopOrders, type ShopOrder } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { idList } from "../lib/sql";
import { maskedLinkId } from "../sl/tokens";
import { transition } from "./order-transition";
import { orderTable } from "../../shared/shop/transitions";

/**
 * Money going back (docs/decisions/048-shop.md): a refund (an admin's, or one made on Stripe's side), a payment
 * returned because it came for an order already cancelled or rejected, a dispute the payer opened with their bank.
 * Each ends the order and revokes the share links it delivered: files are not kept for money that was returned.
 */

export type EndingAction = "refund" | "return_payment" | "dispute";

/** Revokes the order's delivery links still live; repeating it changes nothing. Answers how many it revoked. */
export async function revokeDeliveries(db: Db, actorId: string | null, orderId: string, why: EndingAction) {
  const items = await db.select({ deliveries: shopOrderItems.deliveries }).from(shopOrderItems).where(eq(shopOrderItems.orderId, orderId));
  const ids = items.flatMap((i) => (i.deliveries ?? []).map((d) => d.link_id));
  if (!ids.length) return 0;
  const live = await db
    .select({ id: shareLinks.linkId })
    .from(shareLinks)
    .where(and(inArray(shareLinks.linkId, idList(ids)), isNull(shareLinks.revokedAt)));
  if (!live.length) return 0;
  const now = nowSeconds();
  await db.batch([
    db
      .update(shareLinks)
      .set({ revokedAt: now, mtime: now })
      .where(and(inArray(shareLinks.linkId, idList(live.map((l) => l.id))), isNull(shareLinks.revokedAt))),
    eventInsert(db, {
      kind: "shop.order.links-revoked",
      userId: actorId,
      entityType: "shop_order",
      entityId: orderId,
      data: { why, links: live.map((l) => maskedLinkId(l.id)) },
    }),
  ]);
  return live.length;
}

/**
 * Moves the order by `action`, then revokes its links. An order already where the action leads (a webhook retried
 * after failing half-way, Stripe's charge.refunded for a refund made here) only has its links revoked again.
 */
export async function endOrder(
  db: Db,
  actor: AuthUser | null,
  orderId: string,
  action: EndingAction,
  set: Partial<Pick<ShopOrder, "reason">> = {},
  data: Record<string, unknown> = {},
) {
  try {
    await transition(db, actor, orderId, action, set, data);
  } catch (err) {
    const now = await db.select({ status: shopOrders.status }).from(shopOrders).where(eq(shopOrders.orderId, orderId)).get();
    if (!(err instanceof ApiError) || now?.status !== orderTable[action].to) throw err;
  }
  await revokeDeliveries(db, actor?.userId ?? null, orderId, action);
}

/** Whether `action` applies to an order in `status`, or has already been done to it. */
export const endsFrom = (action: EndingAction, status: ShopOrder["status"]) =>
  orderTable[action].from.includes(status) || orderTable[action].to === status;
