import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { uuidKey } from "./columns";
import { shopVariants } from "./shop-offers";

/** One delivered file: the share link made for it on payment. */
export interface ShopDelivery {
  asset_id: string;
  name: string;
  link_id: string;
  ends_at: number;
}

/**
 * An order line: a snapshot of the product's title, the licence and the price at checkout, so later edits
 * of products, offers or licences never change a placed order.
 */
export const shopOrderItems = sqliteTable(
  "shop_order_items",
  {
    itemId: uuidKey("item_id"),
    orderId: text("order_id").notNull(),
    productId: text("product_id").notNull(),
    offerId: text("offer_id").notNull(),
    assetId: text("asset_id"),
    groupId: text("group_id"),
    title: text("title").notNull(),
    licenceId: text("licence_id").notNull(),
    licenceName: text("licence_name").notNull(),
    licenceTerms: text("licence_terms").notNull(),
    durationDays: integer("duration_days"),
    variant: text("variant", { enum: shopVariants }).notNull(),
    price: integer("price").notNull(),
    currency: text("currency").notNull(),
    deliveries: text("deliveries", { mode: "json" }).$type<ShopDelivery[]>(),
  },
  (t) => [index("shop_order_items_order_idx").on(t.orderId)],
);

export type ShopOrderItem = typeof shopOrderItems.$inferSelect;
