import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/** A line of a user's cart: one offer, at most once (adding it again changes nothing). */
export const shopCartItems = sqliteTable(
  "shop_cart_items",
  {
    itemId: uuidKey("item_id"),
    userId: text("user_id").notNull(),
    productId: text("product_id").notNull(),
    offerId: text("offer_id").notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [uniqueIndex("shop_cart_items_user_offer_idx").on(t.userId, t.offerId), index("shop_cart_items_offer_idx").on(t.offerId)],
);

export type ShopCartItem = typeof shopCartItems.$inferSelect;
