import type { Context } from "hono";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { createApp } from "../lib/openapi";
import { approveOrder, cancelOrder, markPaid, refundOrder, rejectOrder } from "./actions";
import { addToCart, getCart, removeFromCart } from "./cart";
import * as r from "../../shared/shop/contract";
import { createLicence, deleteLicence, listLicences, patchLicence } from "./licences";
import { allOrders, checkout, getOrder, myOrders } from "./orders";
import { createProduct, deleteProduct, getProduct, listProducts, patchProduct, publishProduct } from "./products";
import { stripeWebhook } from "./stripe";

/** /api/shop: the handlers of ./contract.ts's routes (docs/decisions/048-shop.md). */
const app = createApp();
const originOf = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const db = (c: Context<AppEnv>) => getDb(c.env);
const admin = (c: Context<AppEnv>) => {
  requireAdmin(c.get("auth"));
  return c.get("auth");
};

app.openapi(r.listLicences, async (c) => c.json(await listLicences(db(c)), 200));
app.openapi(r.createLicence, async (c) => c.json(await createLicence(db(c), admin(c), c.req.valid("json")), 200));
app.openapi(r.patchLicence, async (c) => c.json(await patchLicence(db(c), admin(c), c.req.valid("param").id, c.req.valid("json")), 200));
app.openapi(r.deleteLicence, async (c) => {
  await deleteLicence(db(c), admin(c), c.req.valid("param").id);
  return c.json({ ok: true as const }, 200);
});

app.openapi(r.listProducts, async (c) => c.json(await listProducts(db(c), c.get("auth"), c.req.valid("query")), 200));
app.openapi(r.getProduct, async (c) => c.json(await getProduct(db(c), c.get("auth"), c.req.valid("param").id), 200));
app.openapi(r.createProduct, async (c) => c.json(await createProduct(db(c), admin(c), c.req.valid("json")), 200));
app.openapi(r.patchProduct, async (c) => c.json(await patchProduct(db(c), admin(c), c.req.valid("param").id, c.req.valid("json")), 200));
app.openapi(r.deleteProduct, async (c) => {
  await deleteProduct(db(c), admin(c), c.req.valid("param").id);
  return c.json({ ok: true as const }, 200);
});
app.openapi(r.publishProduct, async (c) =>
  c.json(await publishProduct(db(c), admin(c), c.req.valid("param").id, c.req.valid("json").published), 200),
);

app.openapi(r.getCart, async (c) => c.json(await getCart(db(c), c.env, c.get("auth")), 200));
app.openapi(r.addToCart, async (c) => {
  const b = c.req.valid("json");
  return c.json(await addToCart(db(c), c.env, c.get("auth"), b.product_id, b.offer_id), 200);
});
app.openapi(r.removeFromCart, async (c) => c.json(await removeFromCart(db(c), c.env, c.get("auth"), c.req.valid("param").id), 200));

app.openapi(r.checkout, async (c) => c.json(await checkout(db(c), c.env, c.get("auth"), c.req.valid("json"), originOf(c)), 200));
app.openapi(r.myOrders, async (c) => c.json({ items: await myOrders(db(c), c.get("auth"), originOf(c)) }, 200));
app.openapi(r.allOrders, async (c) => {
  admin(c);
  return c.json({ items: await allOrders(db(c), c.req.valid("query").status, originOf(c)) }, 200);
});
app.openapi(r.getOrder, async (c) => c.json(await getOrder(db(c), c.get("auth"), c.req.valid("param").id, originOf(c)), 200));
app.openapi(r.approveOrder, async (c) => c.json(await approveOrder(db(c), admin(c), c.req.valid("param").id, originOf(c)), 200));
app.openapi(r.rejectOrder, async (c) =>
  c.json(await rejectOrder(db(c), c.env, admin(c), c.req.valid("param").id, c.req.valid("json").reason, originOf(c)), 200),
);
app.openapi(r.markPaid, async (c) => c.json(await markPaid(db(c), c.env, admin(c), c.req.valid("param").id, originOf(c)), 200));

app.openapi(r.refundOrder, async (c) => c.json(await refundOrder(db(c), c.env, admin(c), c.req.valid("param").id, originOf(c)), 200));

app.openapi(r.cancelOrder, async (c) => c.json(await cancelOrder(db(c), c.env, c.get("auth"), c.req.valid("param").id, originOf(c)), 200));

app.openapi(r.stripeWebhook, async (c) => {
  // The signature covers the raw bytes: the body is read as text, never parsed before the check.
  const payload = await c.req.text();
  return c.json(await stripeWebhook(db(c), c.env, payload, c.req.header("stripe-signature"), originOf(c)), 200);
});

export default app;
