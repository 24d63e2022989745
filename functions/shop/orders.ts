import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import { shopCartItems, shopOrderItems, shopOrders, users, type OrderStatus, type ShopOrder, type ShopOrderItem } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireOwned } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { idList } from "../lib/sql";
import { invalidFields } from "../lib/validation";
import { cartLines } from "./cart";
import { paymentProvider, providerFor } from "./payment";
import { loadProduct } from "./products";
import type { OrderOut } from "../../shared/shop/schemas";
import { orderNotFound, orderNotFoundMessage } from "./order-transition";

/** Orders: checkout snapshots the cart, then the transition table (./transitions.ts) moves them. */

const itemOut = (i: ShopOrderItem, origin: string): OrderOut["items"][number] => {
  const deliveries = (i.deliveries ?? []).map((d) => ({
    asset_id: d.asset_id,
    name: d.name,
    url: `${origin}/sl/${d.link_id}`,
    ends_at: d.ends_at,
  }));
  return {
    item_id: i.itemId,
    product_id: i.productId,
    title: i.title,
    licence_name: i.licenceName,
    licence_terms: i.licenceTerms,
    duration_days: i.durationDays,
    variant: i.variant,
    price: i.price,
    currency: i.currency,
    delivery_url: deliveries[0]?.url ?? null,
    deliveries,
  };
};

async function ordersOut(db: Db, where: SQL | undefined, origin: string, limit = 200): Promise<OrderOut[]> {
  const rows = await db
    .select({ order: shopOrders, userName: users.userName })
    .from(shopOrders)
    .leftJoin(users, eq(users.userId, shopOrders.userId))
    .where(where)
    .orderBy(desc(shopOrders.ctime), desc(shopOrders.orderId))
    .limit(limit);
  if (!rows.length) return [];
  const items = await db
    .select()
    .from(shopOrderItems)
    .where(inArray(shopOrderItems.orderId, idList(rows.map((r) => r.order.orderId))));
  return rows.map(({ order: o, userName }) => ({
    order_id: o.orderId,
    user_id: o.userId,
    user_name: userName,
    email: o.email,
    status: o.status,
    total: o.total,
    currency: o.currency,
    provider: o.provider,
    payment_url: o.status === "awaiting_payment" ? o.paymentUrl : null,
    reason: o.reason,
    items: items.filter((i) => i.orderId === o.orderId).map((i) => itemOut(i, origin)),
    ctime: o.ctime,
    mtime: o.mtime,
    paid_at: o.paidAt,
    delivered_at: o.deliveredAt,
  }));
}

export const myOrders = (db: Db, auth: AuthUser, origin: string) => ordersOut(db, eq(shopOrders.userId, auth.userId), origin);
export const allOrders = (db: Db, status: OrderStatus | undefined, origin: string) =>
  ordersOut(db, status ? eq(shopOrders.status, status) : undefined, origin, 500);

/** The buyer's own order, or any for admins; another user's order is 404 like a missing one. */
export async function getOrder(db: Db, auth: AuthUser, id: string, origin: string) {
  await requireOwned(db, auth, "read", "order", [id], { notFound: orderNotFoundMessage });
  const [order] = await ordersOut(db, eq(shopOrders.orderId, id), origin, 1);
  if (!order) throw orderNotFound();
  return order;
}

/** The login when it is an address: accounts have no mail column, and the buyer may give one at checkout. */
const loginMail = (login: string) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(login) ? login : null);

/**
 * Places an order from the caller's cart: every product must still be visible and the lines must share one
 * currency; titles, licences and prices are copied into the order, and the cart is emptied in the same batch.
 */
export async function checkout(db: Db, env: Env, auth: AuthUser, body: { provider?: "manual" | "stripe"; email?: string }, origin: string) {
  const lines = await cartLines(db, auth);
  if (!lines.length) throw new ApiError("conflict", "Корзина пуста");
  for (const productId of new Set(lines.map((l) => l.product.productId))) await loadProduct(db, auth, productId);
  const currencies = [...new Set(lines.map((l) => l.offer.currency))];
  if (currencies.length > 1)
    throw new ApiError("conflict", `В корзине товары в разных валютах (${currencies.join(", ")}): оформите их отдельными заказами`);
  const providerName = providerFor(env, body.provider);
  if (!providerName) throw invalidFields([{ field: "provider", message: "оплата через Stripe не настроена" }]);
  const orderId = newId();
  const now = nowSeconds();
  const email = body.email ?? loginMail(auth.login);
  const items: ShopOrderItem[] = lines.map((l) => ({
    itemId: newId(),
    orderId,
    productId: l.product.productId,
    offerId: l.offer.offerId,
    assetId: l.product.assetId,
    groupId: l.product.groupId,
    title: l.product.title,
    licenceId: l.licence.licenceId,
    licenceName: l.licence.name,
    licenceTerms: l.licence.terms,
    durationDays: l.licence.durationDays,
    variant: l.offer.variant,
    price: l.offer.price,
    currency: l.offer.currency,
    deliveries: null,
  }));
  const total = items.reduce((s, i) => s + i.price, 0);
  // The provider first: a payment page that cannot be made leaves no order and the cart as it was.
  const started = await paymentProvider(env, providerName).start({ orderId, total, currency: currencies[0], email, items }, origin);
  const order: ShopOrder = {
    orderId,
    userId: auth.userId,
    email,
    status: started.status,
    total,
    currency: currencies[0],
    provider: providerName,
    providerRef: started.providerRef ?? null,
    paymentUrl: started.paymentUrl ?? null,
    reason: null,
    ctime: now,
    mtime: now,
    paidAt: null,
    deliveredAt: null,
  };
  await db.batch([
    db.insert(shopOrders).values(order),
    db.insert(shopOrderItems).values(items),
    db
      .delete(shopCartItems)
      .where(and(eq(shopCartItems.userId, auth.userId), inArray(shopCartItems.itemId, idList(lines.map((l) => l.item.itemId))))),
    eventInsert(db, {
      kind: "shop.order.create",
      userId: auth.userId,
      entityType: "shop_order",
      entityId: orderId,
      data: { total, currency: order.currency, provider: providerName, status: order.status, items: items.length },
    }),
  ]);
  return { order_id: orderId, status: order.status, payment_url: order.paymentUrl };
}
