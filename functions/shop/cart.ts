import { and, asc, eq } from "drizzle-orm";
import { shopCartItems, shopLicences, shopOffers, shopProducts } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { stripeConfigured } from "./payment";
import { loadProduct } from "./products";
import type { CartOut } from "../../shared/shop/schemas";

/** The caller's cart: lines of offers, always at today's prices (the order snapshots them at checkout). */

export async function cartLines(db: Db, auth: AuthUser) {
  return db
    .select({ item: shopCartItems, offer: shopOffers, licence: shopLicences, product: shopProducts })
    .from(shopCartItems)
    .innerJoin(shopOffers, eq(shopOffers.offerId, shopCartItems.offerId))
    .innerJoin(shopLicences, eq(shopLicences.licenceId, shopOffers.licenceId))
    .innerJoin(shopProducts, eq(shopProducts.productId, shopCartItems.productId))
    .where(eq(shopCartItems.userId, auth.userId))
    .orderBy(asc(shopCartItems.ctime), asc(shopCartItems.itemId));
}
export type CartLine = Awaited<ReturnType<typeof cartLines>>[number];

export async function getCart(db: Db, env: Env, auth: AuthUser): Promise<CartOut> {
  const lines = await cartLines(db, auth);
  const currencies = [...new Set(lines.map((l) => l.offer.currency))];
  return {
    items: lines.map((l) => ({
      item_id: l.item.itemId,
      product_id: l.product.productId,
      offer_id: l.offer.offerId,
      title: l.product.title,
      licence_name: l.licence.name,
      variant: l.offer.variant,
      price: l.offer.price,
      currency: l.offer.currency,
    })),
    total: lines.reduce((s, l) => s + l.offer.price, 0),
    currency: currencies.length === 1 ? currencies[0] : null,
    providers: stripeConfigured(env) ? ["manual", "stripe"] : ["manual"],
  };
}

/** Adds an offer of a product the caller may see; the same offer twice is one line. */
export async function addToCart(db: Db, env: Env, auth: AuthUser, productId: string, offerId: string) {
  await loadProduct(db, auth, productId);
  const offer = await db
    .select({ id: shopOffers.offerId })
    .from(shopOffers)
    .where(and(eq(shopOffers.offerId, offerId), eq(shopOffers.productId, productId)))
    .get();
  if (!offer)
    throw new ApiError("validation", "Неверные данные: «offer_id»: не предложение этого товара", [
      { field: "offer_id", message: "не предложение этого товара" },
    ]);
  await db.batch([
    db
      .insert(shopCartItems)
      .values({ itemId: newId(), userId: auth.userId, productId, offerId, ctime: nowSeconds() })
      .onConflictDoNothing(),
    eventInsert(db, {
      kind: "shop.cart.add",
      userId: auth.userId,
      entityType: "shop_product",
      entityId: productId,
      data: { offer: offerId },
    }),
  ]);
  return getCart(db, env, auth);
}

export async function removeFromCart(db: Db, env: Env, auth: AuthUser, itemId: string) {
  const gone = await db
    .delete(shopCartItems)
    .where(and(eq(shopCartItems.itemId, itemId), eq(shopCartItems.userId, auth.userId)))
    .returning({ id: shopCartItems.itemId, productId: shopCartItems.productId });
  if (!gone.length) throw new ApiError("not_found", "В корзине нет такой строки");
  await eventInsert(db, { kind: "shop.cart.remove", userId: auth.userId, entityType: "shop_product", entityId: gone[0].productId }).run();
  return getCart(db, env, auth);
}
