import { and, asc, eq } from "drizzle-orm";
import { assets, groupMembers, shopOrderItems, shopProducts, users, type ShopDelivery, type ShopOrder } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { authUserColumns } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { eventInsert } from "../lib/events";
import { sendMailRecorded } from "../lib/mail";
import { createLink } from "../sl/service";
import { maskedLinkId } from "../sl/tokens";
import { recordLicences } from "./licence-fields";
import { DEFAULT_DELIVERY_DAYS } from "../../shared/shop/schemas";
import { transition } from "./order-transition";

/**
 * Delivery of a paid order (docs/decisions/048-shop.md): per item a download share link to the licensed variant
 * (functions/sl, the one link service) for the licence's duration or 30 days, the licence written on each asset,
 * a mail to the buyer, then paid → delivered. Every step is an event. Only the caller that won the move to
 * `paid` gets here, so a replayed payment never delivers twice.
 */

/** Files of a collection that are delivered: its direct members, at most this many. */
export const MAX_COLLECTION_FILES = 200;

/** The seller: the product's maker when still enabled, else any enabled admin. Links are made in their name. */
async function sellerFor(db: Db, productId: string): Promise<AuthUser | null> {
  const asUser = (u: Omit<AuthUser, "sessionId"> | undefined) => (u ? { ...u, sessionId: "shop-delivery" } : null);
  const maker = await db
    .select(authUserColumns)
    .from(shopProducts)
    .innerJoin(users, and(eq(users.userId, shopProducts.creator), eq(users.enabled, true)))
    .where(eq(shopProducts.productId, productId))
    .get();
  if (maker) return asUser(maker);
  const anyAdmin = await db
    .select(authUserColumns)
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.enabled, true)))
    .orderBy(asc(users.ctime))
    .get();
  return asUser(anyAdmin);
}

async function filesOf(db: Db, item: { assetId: string | null; groupId: string | null }) {
  if (item.assetId) return db.select({ id: assets.assetId, name: assets.name }).from(assets).where(eq(assets.assetId, item.assetId));
  return db
    .select({ id: assets.assetId, name: assets.name })
    .from(groupMembers)
    .innerJoin(assets, eq(assets.assetId, groupMembers.elId))
    .where(and(eq(groupMembers.groupId, item.groupId!), eq(groupMembers.elType, "asset")))
    .orderBy(asc(assets.name))
    .limit(MAX_COLLECTION_FILES);
}

export async function deliverOrder(db: Db, env: Env, order: ShopOrder, origin: string) {
  const items = await db.select().from(shopOrderItems).where(eq(shopOrderItems.orderId, order.orderId));
  const now = nowSeconds();
  const urls: string[] = [];
  for (const item of items) {
    const seller = await sellerFor(db, item.productId);
    if (!seller) throw new Error("no enabled admin to make delivery links");
    const endsAt = now + (item.durationDays ?? DEFAULT_DELIVERY_DAYS) * 86_400;
    const deliveries: ShopDelivery[] = [];
    const licences: Parameters<typeof recordLicences>[2] = [];
    for (const file of await filesOf(db, item)) {
      const linkId = await createLink(
        db,
        env,
        seller,
        file.id,
        { time_range: [now, endsAt], acl: [item.variant === "original" ? "download_original" : "download_proxy"], email: [] },
        origin,
      );
      deliveries.push({ asset_id: file.id, name: file.name, link_id: linkId, ends_at: endsAt });
      licences.push({ assetId: file.id, buyerId: order.userId, licence: item.licenceName, orderId: order.orderId, from: now, to: endsAt });
      urls.push(`${item.title} — ${file.name}: ${origin}/sl/${linkId}`);
    }
    await db.batch([
      db.update(shopOrderItems).set({ deliveries }).where(eq(shopOrderItems.itemId, item.itemId)),
      eventInsert(db, {
        kind: "shop.order.item-delivered",
        userId: seller.userId,
        entityType: "shop_order",
        entityId: order.orderId,
        data: { item: item.itemId, links: deliveries.map((d) => maskedLinkId(d.link_id)), ends_at: endsAt },
      }),
    ]);
    const written = await recordLicences(db, seller, licences);
    await eventInsert(db, {
      kind: "shop.order.licence-recorded",
      userId: seller.userId,
      entityType: "shop_order",
      entityId: order.orderId,
      data: { item: item.itemId, fields: written },
    }).run();
  }
  await mailBuyer(db, env, order, urls);
  await transition(db, null, order.orderId, "deliver", { deliveredAt: now });
}

async function mailBuyer(db: Db, env: Env, order: ShopOrder, lines: string[]) {
  if (!order.email) return;
  const subject = `Заказ ${order.orderId.slice(0, 8)} оплачен: ссылки для скачивания`;
  const text = `Спасибо за покупку.\n\n${lines.join("\n")}\n\nСсылки действуют до окончания срока лицензии.`;
  await sendMailRecorded(
    db,
    env,
    { to: [order.email], subject, text, logText: `${lines.length} link(s) for order ${order.orderId}` },
    { kind: "shop.order.email", userId: order.userId, entityType: "shop_order", entityId: order.orderId },
  );
}
