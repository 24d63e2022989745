import { and, eq, inArray } from "drizzle-orm";
import { shopOrders, type ShopOrder } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { orderTable, type OrderAction } from "../../shared/shop/transitions";

/** Moving an order along the state machine (./transitions.ts): used by checkout, the admin's actions, delivery and the payment webhooks. */

export const orderNotFoundMessage = "Заказ не найден";
export const orderNotFound = () => new ApiError("not_found", orderNotFoundMessage);

/**
 * Moves an order by the table: one conditional UPDATE, so of two racing moves only one wins; the loser (and any
 * move the table does not allow from the current status) is 409. `actor` null: the system (payment, delivery).
 */
export async function transition(
  db: Db,
  actor: AuthUser | null,
  id: string,
  action: OrderAction,
  set: Partial<Pick<ShopOrder, "reason" | "paidAt" | "deliveredAt">> = {},
  data: Record<string, unknown> = {},
): Promise<ShopOrder> {
  const rule = orderTable[action];
  const [moved] = await db
    .update(shopOrders)
    .set({ status: rule.to, mtime: nowSeconds(), ...set })
    .where(and(eq(shopOrders.orderId, id), inArray(shopOrders.status, [...rule.from])))
    .returning();
  if (!moved) {
    const now = await db.select({ status: shopOrders.status }).from(shopOrders).where(eq(shopOrders.orderId, id)).get();
    if (!now) throw orderNotFound();
    throw new ApiError("conflict", `Заказ в статусе «${now.status}»: действие «${action}» недоступно`);
  }
  await eventInsert(db, {
    kind: `shop.order.${action.replace("_", "-")}`,
    userId: actor?.userId ?? null,
    entityType: "shop_order",
    entityId: id,
    data: { to: rule.to, ...data },
  }).run();
  return moved;
}
