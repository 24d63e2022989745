import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** Order statuses; the transitions: shared/shop/transitions.ts. */
export const orderStatuses = ["new", "awaiting_payment", "paid", "delivered", "rejected", "cancelled", "refunded", "disputed"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const paymentProviders = ["manual", "stripe"] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

/** An order: the cart as it was at checkout (its items are snapshots, ./shop-order-items.ts). */
export const shopOrders = sqliteTable(
  "shop_orders",
  {
    orderId: uuidKey("order_id"),
    userId: text("user_id").notNull(),
    /** Where the delivery mail goes: given at checkout, else the login when it is an address; null = no mail. */
    email: text("email"),
    status: text("status", { enum: orderStatuses }).notNull(),
    total: integer("total").notNull(),
    currency: text("currency").notNull(),
    provider: text("provider", { enum: paymentProviders }).notNull(),
    /** The provider's reference (a Stripe Checkout session id). */
    providerRef: text("provider_ref"),
    paymentUrl: text("payment_url"),
    reason: text("reason"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
    paidAt: unixTime("paid_at"),
    deliveredAt: unixTime("delivered_at"),
  },
  (t) => [
    index("shop_orders_user_idx").on(t.userId, t.ctime),
    index("shop_orders_status_idx").on(t.status, t.ctime),
    index("shop_orders_ref_idx").on(t.providerRef),
  ],
);

export type ShopOrder = typeof shopOrders.$inferSelect;
