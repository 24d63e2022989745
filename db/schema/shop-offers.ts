import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { uuidKey } from "./columns";

/** What an offer delivers: the original or a proxy (the share link's download_original / download_proxy). */
export const shopVariants = ["original", "proxy"] as const;
export type ShopVariant = (typeof shopVariants)[number];

/** One way to buy a product: a licence, a variant and a price in minor units of its currency. */
export const shopOffers = sqliteTable(
  "shop_offers",
  {
    offerId: uuidKey("offer_id"),
    productId: text("product_id").notNull(),
    licenceId: text("licence_id").notNull(),
    variant: text("variant", { enum: shopVariants }).notNull(),
    price: integer("price").notNull(),
    currency: text("currency").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [index("shop_offers_product_idx").on(t.productId, t.position), index("shop_offers_licence_idx").on(t.licenceId)],
);

export type ShopOffer = typeof shopOffers.$inferSelect;
