import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * A product: one asset or one group (a collection) offered for sale. Only published products are shown,
 * and only to callers who may read the asset or group (docs/decisions/048-shop.md).
 */
export const shopProducts = sqliteTable(
  "shop_products",
  {
    productId: uuidKey("product_id"),
    assetId: text("asset_id"),
    groupId: text("group_id"),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** Title and description lower-cased in JavaScript (SQLite's lower() knows only ASCII), for the catalogue search. */
    searchKey: text("search_key").notNull().default(""),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    /** The admin who made it: delivery links are made in their name (a link never grants more than its maker holds). */
    creator: text("creator").notNull(),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [index("shop_products_published_idx").on(t.published, t.ctime), index("shop_products_group_idx").on(t.groupId)],
);

export type ShopProduct = typeof shopProducts.$inferSelect;
