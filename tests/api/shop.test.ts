import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  events,
  fieldValues,
  orderStatuses as tableStatuses,
  paymentProviders as tableProviders,
  shopVariants as tableVariants,
} from "../../db/schema";
import { orderStatuses, paymentProviders, shopVariants } from "../../shared/shop/schemas";
import { licenceFieldIds } from "../../functions/shop/licence-fields";
import { admin, call, db, grant, mkPerson } from "./fixtures";
import { api } from "./helpers";
import { buyer, mkLicence, mkProduct, ok, order, originalBytes, proxyBytes, shelf } from "./shop.helpers";

/** The shop with the manual provider: catalogue, cart, checkout, approval, payment, delivery (decision 048). */

describe("the shop, manual payment", () => {
  it("runs the whole flow: cart, checkout, approve, mark-paid, delivery links, licence fields, events", async () => {
    const s = await shelf();
    const lic = await mkLicence({ duration_days: 7 });
    const product = await mkProduct({ asset_id: s.asset }, [
      [lic.licence_id, "original", 150_000],
      [lic.licence_id, "proxy", 50_000],
    ]);
    const user = await buyer(s.group);

    const catalogue = await ok(`/api/shop/products?q=${encodeURIComponent(product.title.slice(0, 8).toUpperCase())}`, {
      bearer: user.bearer,
    });
    expect(catalogue.items.map((p: { product_id: string }) => p.product_id)).toContain(product.product_id);
    const byGroup = await ok(`/api/shop/products?group=${s.group}`, { bearer: user.bearer });
    expect(byGroup.items.map((p: { product_id: string }) => p.product_id)).toEqual([product.product_id]);

    // The same offer twice is one line; two offers of one product are two.
    await ok("/api/shop/cart/items", {
      method: "POST",
      json: { product_id: product.product_id, offer_id: product.offers[1].offer_id },
      bearer: user.bearer,
    });
    const placed = await order(
      user.bearer,
      [
        { product_id: product.product_id, offer_id: product.offers[0].offer_id },
        { product_id: product.product_id, offer_id: product.offers[1].offer_id },
      ],
      { email: "buyer@example.com" },
    );
    expect(placed.status).toBe("new");
    expect(await ok("/api/shop/cart", { bearer: user.bearer })).toMatchObject({ items: [], providers: ["manual"] });

    const mine = await ok(`/api/shop/order/${placed.order_id}`, { bearer: user.bearer });
    expect(mine).toMatchObject({ status: "new", total: 200_000, currency: "RUB", provider: "manual" });
    expect(mine.items.every((i: { delivery_url: string | null }) => i.delivery_url === null)).toBe(true);

    const listed = await ok("/api/shop/orders/all?status=new");
    expect(listed.items.map((o: { order_id: string }) => o.order_id)).toContain(placed.order_id);
    expect((await ok(`/api/shop/order/${placed.order_id}/approve`, { method: "POST" })).status).toBe("awaiting_payment");
    const done = await ok(`/api/shop/order/${placed.order_id}/mark-paid`, { method: "POST" });
    expect(done.status).toBe("delivered");

    const seen = await ok("/api/shop/orders", { bearer: user.bearer });
    const delivered = seen.items.find((o: { order_id: string }) => o.order_id === placed.order_id);
    expect(delivered.status).toBe("delivered");
    const byVariant = Object.fromEntries(
      delivered.items.map((i: { variant: string; delivery_url: string }) => [i.variant, i.delivery_url]),
    );
    // Signed out, each link downloads its licensed variant and nothing else.
    const idOf = (url: string) => url.split("/sl/")[1];
    const orig = await api(`/api/sl/${idOf(byVariant.original)}/download/original`);
    expect(orig.status).toBe(200);
    expect(new Uint8Array(await orig.arrayBuffer())).toEqual(originalBytes);
    expect((await api(`/api/sl/${idOf(byVariant.original)}/download/proxy`)).status).toBe(403);
    const prox = await api(`/api/sl/${idOf(byVariant.proxy)}/download/proxy`);
    expect(new Uint8Array(await prox.arrayBuffer())).toEqual(proxyBytes);
    expect((await api(`/api/sl/${idOf(byVariant.proxy)}/download/original`)).status).toBe(403);

    // The licence is on the asset, as values of the shop's struct field.
    const values = await db()
      .select()
      .from(fieldValues)
      .where(and(eq(fieldValues.entityId, s.asset), eq(fieldValues.defId, licenceFieldIds.struct)));
    expect(values).toHaveLength(2);
    expect(values[0].data).toMatchObject({ [licenceFieldIds.buyer]: user.id, [licenceFieldIds.order]: placed.order_id });

    const kinds = (await db().select({ kind: events.kind }).from(events).where(eq(events.entityId, placed.order_id))).map((e) => e.kind);
    for (const k of [
      "shop.order.create",
      "shop.order.approve",
      "shop.order.mark-paid",
      "shop.order.item-delivered",
      "shop.order.licence-recorded",
      "shop.order.email",
      "shop.order.deliver",
    ])
      expect(kinds, k).toContain(k);
  });

  it("hides unpublished products and other users' orders (404), and products on files the caller cannot read", async () => {
    const s = await shelf();
    const lic = await mkLicence();
    const hidden = await mkProduct({ asset_id: s.asset }, [[lic.licence_id, "original", 100]], { publish: false });
    const shown = await mkProduct({ group_id: s.group }, [[lic.licence_id, "proxy", 100]]);
    const user = await buyer(s.group);
    const stranger = await mkPerson();

    expect((await call(`/api/shop/product/${hidden.product_id}`, { bearer: user.bearer })).status).toBe(404);
    expect(
      (
        await call("/api/shop/cart/items", {
          method: "POST",
          json: { product_id: hidden.product_id, offer_id: hidden.offers[0].offer_id },
          bearer: user.bearer,
        })
      ).status,
    ).toBe(404);
    expect((await call(`/api/shop/product/${shown.product_id}`, { bearer: stranger.bearer })).status).toBe(404);
    const strangerList = await call(`/api/shop/products?take=100`, { bearer: stranger.bearer });
    expect(strangerList.text).not.toContain(shown.product_id);
    const userList = await ok(`/api/shop/products?group=${s.group}`, { bearer: user.bearer });
    expect(userList.items.map((p: { product_id: string }) => p.product_id)).toEqual([shown.product_id]);
    expect((await ok(`/api/shop/products?group=${s.group}&all=true`)).items).toHaveLength(2);

    const placed = await order(user.bearer, [{ product_id: shown.product_id, offer_id: shown.offers[0].offer_id }]);
    const other = await mkPerson();
    expect((await call(`/api/shop/order/${placed.order_id}`, { bearer: other.bearer })).status).toBe(404);
    expect((await call("/api/shop/orders", { bearer: other.bearer })).text).not.toContain(placed.order_id);
    // Withdrawn after checkout: the placed order still shows it.
    await ok(`/api/shop/product/${shown.product_id}/publish`, { method: "POST", json: { published: false } });
    expect((await ok(`/api/shop/order/${placed.order_id}`, { bearer: user.bearer })).items[0].title).toBe(shown.title);
  });

  it("a collection's preview is never a file the caller is denied", async () => {
    const s = await shelf();
    const variant = (await ok(`/api/asset/version-by-ids`, { method: "POST", json: { ids: [s.asset] } }))[0].variants[0].variant_id;
    const up = await api(`/api/asset/upload-preview/${variant}`, {
      method: "POST",
      bearer: await admin(),
      headers: { "Content-Type": "image/jpeg" },
      body: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]) as BodyInit,
    });
    expect(up.status).toBe(200);
    const lic = await mkLicence();
    const product = await mkProduct({ group_id: s.group }, [[lic.licence_id, "proxy", 100]]);
    const user = await buyer(s.group);
    expect((await ok(`/api/shop/product/${product.product_id}`, { bearer: user.bearer })).preview).toContain(s.asset);
    await grant(user.id, s.asset, ["deny"], "user", "asset");
    const seen = await call(`/api/shop/product/${product.product_id}`, { bearer: user.bearer });
    expect(seen.status).toBe(200);
    expect(seen.body.preview).toBeNull();
    expect(seen.text).not.toContain(s.asset);
  });

  it("keeps a snapshot of titles, licences and prices: later changes do not touch a placed order", async () => {
    const s = await shelf();
    const lic = await mkLicence({ name: "Эфир" });
    const product = await mkProduct({ asset_id: s.asset }, [[lic.licence_id, "original", 1_000]], { title: "Рассвет" });
    const user = await buyer(s.group);
    const placed = await order(user.bearer, [{ product_id: product.product_id, offer_id: product.offers[0].offer_id }]);
    await ok(`/api/shop/product/${product.product_id}`, {
      method: "PATCH",
      json: {
        title: "Закат",
        offers: [{ offer_id: product.offers[0].offer_id, licence_id: lic.licence_id, variant: "original", price: 9_999 }],
      },
    });
    await ok(`/api/shop/licences/${lic.licence_id}`, { method: "PATCH", json: { name: "Интернет" } });
    const o = await ok(`/api/shop/order/${placed.order_id}`, { bearer: user.bearer });
    expect(o.total).toBe(1_000);
    expect(o.items[0]).toMatchObject({ title: "Рассвет", licence_name: "Эфир", price: 1_000 });
    const now = await ok(`/api/shop/product/${product.product_id}`, { bearer: user.bearer });
    expect(now).toMatchObject({ title: "Закат", offers: [{ price: 9_999, licence_name: "Интернет" }] });
  });

  it("refuses moves the transition table does not list (409) and an empty cart", async () => {
    const s = await shelf();
    const lic = await mkLicence();
    const product = await mkProduct({ asset_id: s.asset }, [[lic.licence_id, "proxy", 500]]);
    const user = await buyer(s.group);
    expect((await call("/api/shop/checkout", { method: "POST", json: {}, bearer: user.bearer })).status).toBe(409);
    const placed = await order(user.bearer, [{ product_id: product.product_id, offer_id: product.offers[0].offer_id }]);
    const id = placed.order_id;
    expect((await call(`/api/shop/order/${id}/mark-paid`, { method: "POST", bearer: await admin() })).status).toBe(409);
    await ok(`/api/shop/order/${id}/approve`, { method: "POST" });
    expect((await call(`/api/shop/order/${id}/approve`, { method: "POST", bearer: await admin() })).status).toBe(409);
    await ok(`/api/shop/order/${id}/reject`, { method: "POST", json: { reason: "Нет оплаты" } });
    for (const action of ["approve", "mark-paid"])
      expect((await call(`/api/shop/order/${id}/${action}`, { method: "POST", bearer: await admin() })).status, action).toBe(409);
    const rejected = await ok(`/api/shop/order/${id}`, { bearer: user.bearer });
    expect(rejected).toMatchObject({ status: "rejected", reason: "Нет оплаты" });
    expect((await call(`/api/shop/order/${id}/approve`, { method: "POST", bearer: user.bearer })).status).toBe(403);
    // The buyer cancels an order not yet paid; a rejected or delivered one stays as it is.
    expect((await call(`/api/shop/order/${id}/cancel`, { method: "POST", bearer: user.bearer })).status).toBe(409);
    const second = await order(user.bearer, [{ product_id: product.product_id, offer_id: product.offers[0].offer_id }]);
    expect((await call(`/api/shop/order/${second.order_id}/cancel`, { method: "POST", bearer: (await mkPerson()).bearer })).status).toBe(
      404,
    );
    expect((await ok(`/api/shop/order/${second.order_id}/cancel`, { method: "POST", bearer: user.bearer })).status).toBe("cancelled");
    expect((await call(`/api/shop/order/${second.order_id}/approve`, { method: "POST", bearer: await admin() })).status).toBe(409);
    const missing = crypto.randomUUID();
    expect((await call(`/api/shop/order/${missing}/approve`, { method: "POST", bearer: await admin() })).status).toBe(404);
  });

  it("the schemas shared with the UI list the table's statuses, providers and variants", () => {
    expect(orderStatuses).toEqual(tableStatuses);
    expect(paymentProviders).toEqual(tableProviders);
    expect(shopVariants).toEqual(tableVariants);
  });

  it("validates input and names the field", async () => {
    const r = await call("/api/shop/product", {
      method: "POST",
      json: { asset_id: crypto.randomUUID(), title: "x", offers: [{ licence_id: crypto.randomUUID(), variant: "original", price: 1.5 }] },
      bearer: await admin(),
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain("offers.0.price");
    const lic = await mkLicence();
    const bad = await call("/api/shop/product", {
      method: "POST",
      json: { title: "x", offers: [{ licence_id: lic.licence_id, variant: "original", price: 1 }] },
      bearer: await admin(),
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("asset_id");
    const s = await shelf();
    const product = await mkProduct({ asset_id: s.asset }, [[lic.licence_id, "original", 1]]);
    expect((await call(`/api/shop/licences/${lic.licence_id}`, { method: "DELETE", bearer: await admin() })).status).toBe(409);
    await ok(`/api/shop/product/${product.product_id}`, { method: "DELETE" });
    await ok(`/api/shop/licences/${lic.licence_id}`, { method: "DELETE" });
  });
});
