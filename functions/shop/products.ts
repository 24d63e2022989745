import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { assets, groups, shopCartItems, shopLicences, shopOffers, shopProducts, type ShopOffer, type ShopProduct } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, requireAccess, type AccessContext } from "../lib/access";
import { assetFilter, groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { idList, literal } from "../lib/sql";
import { invalidFields } from "../lib/validation";
import type { OfferBody, ProductBody, ProductOut, ProductPatch, ProductsQuery } from "../../shared/shop/schemas";

/**
 * Products and their offers (docs/decisions/048-shop.md). A product is visible to a caller when it is
 * published and the caller may read its asset or group (the permission engine decides); admins see all.
 * A product the caller may not see answers 404, like one that does not exist.
 */

export const productNotFound = () => new ApiError("not_found", "Товар не найден");

const searchKeyOf = (title: string, description: string) => `${title}\n${description}`.toLowerCase();

/**
 * The newest preview image of the product's asset, or of the first file of its collection that has one and that
 * the caller may read (a preview path names the file: a file denied to the caller must not show through).
 */
const previewPath = (ctx: AccessContext) => sql<
  string | null
>`(SELECT '/api/asset/content/preview/' || v.asset_id || '/' || v.version || '/' || v.variant_id
  FROM variants v WHERE v.preview_key IS NOT NULL AND (v.asset_id = ${shopProducts.assetId}
    OR (v.asset_id IN (SELECT gm.el_id FROM group_members gm WHERE gm.group_id = ${shopProducts.groupId} AND gm.el_type = 'asset')
      AND ${assetFilter(ctx, sql.raw("v.asset_id"))}))
  ORDER BY v.version DESC, v.ctime DESC LIMIT 1)`;

/** SQL: the caller may read the product's asset or group (a product whose asset or group is gone is nobody's). */
function readable(ctx: AccessContext): SQL {
  return sql`((${shopProducts.assetId} IS NOT NULL AND ${assets.assetId} IS NOT NULL AND ${assetFilter(ctx, shopProducts.assetId)})
    OR (${shopProducts.groupId} IS NOT NULL AND ${groups.groupId} IS NOT NULL AND ${groupFilter(ctx, groups)}))`;
}

async function offersOf(db: Db, productIds: string[]) {
  if (!productIds.length) return new Map<string, ProductOut["offers"]>();
  const rows = await db
    .select({ offer: shopOffers, licence: shopLicences })
    .from(shopOffers)
    .innerJoin(shopLicences, eq(shopLicences.licenceId, shopOffers.licenceId))
    .where(inArray(shopOffers.productId, idList(productIds)))
    .orderBy(asc(shopOffers.position));
  const by = new Map<string, ProductOut["offers"]>();
  for (const { offer: o, licence: l } of rows) {
    const list = by.get(o.productId) ?? [];
    list.push({
      offer_id: o.offerId,
      licence_id: l.licenceId,
      licence_name: l.name,
      licence_terms: l.terms,
      duration_days: l.durationDays,
      variant: o.variant,
      price: o.price,
      currency: o.currency,
    });
    by.set(o.productId, list);
  }
  return by;
}

const out = (r: { product: ShopProduct; mimetype: string | null; preview: string | null }, offers: ProductOut["offers"]): ProductOut => ({
  product_id: r.product.productId,
  asset_id: r.product.assetId,
  group_id: r.product.groupId,
  title: r.product.title,
  description: r.product.description,
  published: r.product.published,
  mimetype: r.mimetype,
  preview: r.preview,
  offers,
  ctime: r.product.ctime,
});

const base = (db: Db, ctx: AccessContext) =>
  db
    .select({ product: shopProducts, mimetype: assets.mimetype, preview: previewPath(ctx) })
    .from(shopProducts)
    .leftJoin(assets, eq(assets.assetId, shopProducts.assetId))
    .leftJoin(groups, eq(groups.groupId, shopProducts.groupId));

/** The catalogue: published products the caller may see, newest first; admins may ask for unpublished ones too. */
export async function listProducts(db: Db, auth: AuthUser, q: ProductsQuery) {
  const ctx = await accessContext(db, auth);
  const where: SQL[] = [readable(ctx)];
  if (!(auth.isAdmin && q.all === "true")) where.push(eq(shopProducts.published, true));
  if (q.q) where.push(sql`instr(${shopProducts.searchKey}, ${q.q.toLowerCase()}) > 0`);
  if (q.group) {
    where.push(sql`(${shopProducts.groupId} = ${literal(q.group)} OR ${shopProducts.assetId} IN
      (SELECT gm.el_id FROM group_members gm WHERE gm.group_id = ${literal(q.group)} AND gm.el_type = 'asset'))`);
  }
  const [rows, [count]] = await Promise.all([
    base(db, ctx)
      .where(and(...where))
      .orderBy(desc(shopProducts.ctime), asc(shopProducts.productId))
      .limit(q.take)
      .offset(q.skip),
    db
      .select({ n: sql<number>`count(*)` })
      .from(shopProducts)
      .leftJoin(assets, eq(assets.assetId, shopProducts.assetId))
      .leftJoin(groups, eq(groups.groupId, shopProducts.groupId))
      .where(and(...where)),
  ]);
  const offers = await offersOf(
    db,
    rows.map((r) => r.product.productId),
  );
  return { items: rows.map((r) => out(r, offers.get(r.product.productId) ?? [])), total: count?.n ?? 0 };
}

/** A product the caller may see (published and readable; admins: any), else 404. */
export async function loadProduct(db: Db, auth: AuthUser, id: string) {
  const row = await base(db, await accessContext(db, auth))
    .where(eq(shopProducts.productId, id))
    .get();
  if (!row || (!row.product.published && !auth.isAdmin)) throw productNotFound();
  const target = row.product.assetId ?? row.product.groupId!;
  await requireAccess(db, auth, "read", [target], { notFound: "Товар не найден" });
  return row;
}

export async function getProduct(db: Db, auth: AuthUser, id: string) {
  const row = await loadProduct(db, auth, id);
  return out(row, (await offersOf(db, [id])).get(id) ?? []);
}

/** Licences named by offers must exist; problems name offers.<n>.licence_id. */
async function checkLicences(db: Db, offers: OfferBody[]) {
  const ids = [...new Set(offers.map((o) => o.licence_id))];
  const found = new Set(
    (
      await db
        .select({ id: shopLicences.licenceId })
        .from(shopLicences)
        .where(inArray(shopLicences.licenceId, idList(ids)))
    ).map((r) => r.id),
  );
  const bad = offers.flatMap((o, i) =>
    found.has(o.licence_id) ? [] : [{ field: `offers.${i}.licence_id`, message: "нет такой лицензии" }],
  );
  if (bad.length) throw invalidFields(bad);
}

const offerRow = (productId: string, o: OfferBody, position: number, offerId: string = newId()): ShopOffer => ({
  offerId,
  productId,
  licenceId: o.licence_id,
  variant: o.variant,
  price: o.price,
  currency: o.currency,
  position,
});

export async function createProduct(db: Db, auth: AuthUser, b: ProductBody) {
  const target = b.asset_id ?? b.group_id!;
  await requireAccess(db, auth, "read", [target], {
    types: [b.asset_id ? "asset" : "group"],
    notFound: b.asset_id ? "Файл не найден" : "Группа не найдена",
  });
  await checkLicences(db, b.offers);
  const now = nowSeconds();
  const productId = newId();
  await db.batch([
    db.insert(shopProducts).values({
      productId,
      assetId: b.asset_id ?? null,
      groupId: b.group_id ?? null,
      title: b.title,
      description: b.description,
      searchKey: searchKeyOf(b.title, b.description),
      published: false,
      creator: auth.userId,
      ctime: now,
      mtime: now,
    }),
    db.insert(shopOffers).values(b.offers.map((o, i) => offerRow(productId, o, i))),
    eventInsert(db, {
      kind: "shop.product.create",
      userId: auth.userId,
      entityType: "shop_product",
      entityId: productId,
      data: { title: b.title, asset: b.asset_id ?? null, group: b.group_id ?? null, offers: b.offers.length },
    }),
  ]);
  return { product_id: productId };
}

async function productRow(db: Db, id: string) {
  const row = await db.select().from(shopProducts).where(eq(shopProducts.productId, id)).get();
  if (!row) throw productNotFound();
  return row;
}

/**
 * Title, description, offers. The offers list is the whole list: an offer kept by its offer_id keeps its id
 * (carts holding it keep it, at the new price); offers left out are withdrawn and leave the carts.
 */
export async function patchProduct(db: Db, auth: AuthUser, id: string, b: ProductPatch) {
  const row = await productRow(db, id);
  const title = b.title ?? row.title;
  const description = b.description ?? row.description;
  const writes = [];
  if (b.offers) {
    await checkLicences(db, b.offers);
    const current = new Set(
      (await db.select({ id: shopOffers.offerId }).from(shopOffers).where(eq(shopOffers.productId, id))).map((r) => r.id),
    );
    const bad = b.offers.flatMap((o, i) =>
      o.offer_id && !current.has(o.offer_id) ? [{ field: `offers.${i}.offer_id`, message: "не предложение этого товара" }] : [],
    );
    if (bad.length) throw invalidFields(bad);
    const kept = new Set(b.offers.flatMap((o) => (o.offer_id ? [o.offer_id] : [])));
    const dropped = [...current].filter((o) => !kept.has(o));
    if (dropped.length) {
      writes.push(db.delete(shopOffers).where(inArray(shopOffers.offerId, idList(dropped))));
      writes.push(db.delete(shopCartItems).where(inArray(shopCartItems.offerId, idList(dropped))));
    }
    b.offers.forEach((o, i) => {
      const r = offerRow(id, o, i, o.offer_id);
      if (o.offer_id) {
        const { offerId: _o, productId: _p, ...set } = r;
        writes.push(db.update(shopOffers).set(set).where(eq(shopOffers.offerId, o.offer_id)));
      } else writes.push(db.insert(shopOffers).values(r));
    });
  }
  await db.batch([
    db
      .update(shopProducts)
      .set({ title, description, searchKey: searchKeyOf(title, description), mtime: nowSeconds() })
      .where(eq(shopProducts.productId, id)),
    ...writes,
    eventInsert(db, {
      kind: "shop.product.update",
      userId: auth.userId,
      entityType: "shop_product",
      entityId: id,
      data: { title, offers: b.offers?.length ?? null },
    }),
  ]);
  return getProduct(db, auth, id);
}

export async function publishProduct(db: Db, auth: AuthUser, id: string, published: boolean) {
  await productRow(db, id);
  await db.batch([
    db.update(shopProducts).set({ published, mtime: nowSeconds() }).where(eq(shopProducts.productId, id)),
    eventInsert(db, {
      kind: published ? "shop.product.publish" : "shop.product.unpublish",
      userId: auth.userId,
      entityType: "shop_product",
      entityId: id,
    }),
  ]);
  return getProduct(db, auth, id);
}

/** Deletes the product and its offers; carts lose it, placed orders keep their snapshot. */
export async function deleteProduct(db: Db, auth: AuthUser, id: string) {
  const row = await productRow(db, id);
  await db.batch([
    db.delete(shopCartItems).where(eq(shopCartItems.productId, id)),
    db.delete(shopOffers).where(eq(shopOffers.productId, id)),
    db.delete(shopProducts).where(eq(shopProducts.productId, id)),
    eventInsert(db, {
      kind: "shop.product.delete",
      userId: auth.userId,
      entityType: "shop_product",
      entityId: id,
      data: { title: row.title },
    }),
  ]);
}
