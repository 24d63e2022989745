import { eq } from "drizzle-orm";
import { shopOrders } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { deliverOrder } from "./delivery";
import { orderNotFound, transition } from "./order-transition";
import { getOrder } from "./orders";
import { endOrder } from "./refunds";
import { expireCheckout, stripeRefund } from "./stripe";
import { orderTable } from "../../shared/shop/transitions";

/** The admin's moves on an order (manual payment); each is a row of ./transitions.ts, anything else 409. */

export async function approveOrder(db: Db, auth: AuthUser, id: string, origin: string) {
  await transition(db, auth, id, "approve");
  return getOrder(db, auth, id, origin);
}

export async function rejectOrder(db: Db, env: Env, auth: AuthUser, id: string, reason: string, origin: string) {
  await expireCheckout(db, env, await transition(db, auth, id, "reject", { reason }, { reason }));
  return getOrder(db, auth, id, origin);
}

/** The buyer (or an admin) withdraws an order not yet paid; someone else's order is 404 like a missing one. */
export async function cancelOrder(db: Db, env: Env, auth: AuthUser, id: string, origin: string) {
  await getOrder(db, auth, id, origin);
  await expireCheckout(db, env, await transition(db, auth, id, "cancel"));
  return getOrder(db, auth, id, origin);
}

/** Records the payment and delivers at once: links, licence fields, mail, then delivered. */
export async function markPaid(db: Db, env: Env, auth: AuthUser, id: string, origin: string) {
  const order = await transition(db, auth, id, "mark_paid", { paidAt: nowSeconds() }, { provider: "manual" });
  await deliverOrder(db, env, order, origin);
  return getOrder(db, auth, id, origin);
}

/**
 * Gives a paid order's money back and revokes its delivery links. Stripe's order is refunded through Stripe first
 * (nothing changes here if Stripe refuses); a manual order's refund was made outside, and is recorded.
 */
export async function refundOrder(db: Db, env: Env, auth: AuthUser, id: string, origin: string) {
  const order = await db.select().from(shopOrders).where(eq(shopOrders.orderId, id)).get();
  if (!order) throw orderNotFound();
  if (!orderTable.refund.from.includes(order.status))
    throw new ApiError("conflict", `Заказ в статусе «${order.status}»: действие «refund» недоступно`);
  const refund = order.provider === "stripe" ? await stripeRefund(env, order) : null;
  await endOrder(db, auth, id, "refund", {}, { provider: order.provider, refund });
  return getOrder(db, auth, id, origin);
}
