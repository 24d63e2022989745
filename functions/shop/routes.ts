import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import type { AppEnv } from "../lib/env";
import { errorResponse, errorAnswers, createApp, jsonBody, jsonContent, routeDefiner } from "../lib/openapi";
import { approveOrder, cancelOrder, markPaid, refundOrder, rejectOrder } from "./actions";
import { addToCart, getCart, removeFromCart } from "./cart";
import { createLicence, deleteLicence, listLicences, patchLicence } from "./licences";
import { allOrders, checkout, getOrder, myOrders } from "./orders";
import { createProduct, deleteProduct, getProduct, listProducts, patchProduct, publishProduct } from "./products";
import {
  cartItemBody,
  cartOut,
  checkoutBody,
  checkoutOut,
  idParam,
  licenceBody,
  licenceOut,
  licencePatch,
  okOut,
  orderOut,
  ordersPage,
  ordersQuery,
  productBody,
  productIdOut,
  productOut,
  productPatch,
  productsPage,
  productsQuery,
  publishBody,
  rejectBody,
} from "./schemas";
import { stripeWebhook } from "./stripe";

/** /api/shop: licences, products, cart, orders, payment (docs/decisions/048-shop.md). */
const app = createApp();
const route = routeDefiner(
  ["shop"],
  errorAnswers({
    403: "Admins only",
    404: "Not found, or not visible to the caller",
    409: "Not allowed in the order's status, an empty cart, a licence in use",
  }),
);
const originOf = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const db = (c: Context<AppEnv>) => getDb(c.env);
const admin = (c: Context<AppEnv>) => {
  requireAdmin(c.get("auth"));
  return c.get("auth");
};

app.openapi(route("get", "/licences", "All licences", {}, z.array(licenceOut)), async (c) => c.json(await listLicences(db(c)), 200));
app.openapi(route("post", "/licences", "Create a licence (admins)", { body: jsonBody(licenceBody) }, licenceOut), async (c) =>
  c.json(await createLicence(db(c), admin(c), c.req.valid("json")), 200),
);
app.openapi(
  route(
    "patch",
    "/licences/{id}",
    "Change a licence (admins); placed orders keep their copy",
    { params: idParam, body: jsonBody(licencePatch) },
    licenceOut,
  ),
  async (c) => c.json(await patchLicence(db(c), admin(c), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(route("delete", "/licences/{id}", "Delete a licence no offer uses (admins)", { params: idParam }, okOut), async (c) => {
  await deleteLicence(db(c), admin(c), c.req.valid("param").id);
  return c.json({ ok: true as const }, 200);
});

app.openapi(
  route(
    "get",
    "/products",
    "Published products the caller may see (admins: all=true for unpublished too)",
    { query: productsQuery },
    productsPage,
  ),
  async (c) => c.json(await listProducts(db(c), c.get("auth"), c.req.valid("query")), 200),
);
app.openapi(route("get", "/product/{id}", "A product with its offers", { params: idParam }, productOut), async (c) =>
  c.json(await getProduct(db(c), c.get("auth"), c.req.valid("param").id), 200),
);
app.openapi(
  route(
    "post",
    "/product",
    "Create a product from an asset or a group, unpublished (admins)",
    { body: jsonBody(productBody) },
    productIdOut,
  ),
  async (c) => c.json(await createProduct(db(c), admin(c), c.req.valid("json")), 200),
);
app.openapi(
  route(
    "patch",
    "/product/{id}",
    "Change a product and its offers (admins)",
    { params: idParam, body: jsonBody(productPatch) },
    productOut,
  ),
  async (c) => c.json(await patchProduct(db(c), admin(c), c.req.valid("param").id, c.req.valid("json")), 200),
);
app.openapi(
  route("delete", "/product/{id}", "Delete a product (admins); orders keep their snapshot", { params: idParam }, okOut),
  async (c) => {
    await deleteProduct(db(c), admin(c), c.req.valid("param").id);
    return c.json({ ok: true as const }, 200);
  },
);
app.openapi(
  route(
    "post",
    "/product/{id}/publish",
    "Publish or withdraw a product (admins)",
    { params: idParam, body: jsonBody(publishBody) },
    productOut,
  ),
  async (c) => c.json(await publishProduct(db(c), admin(c), c.req.valid("param").id, c.req.valid("json").published), 200),
);

app.openapi(route("get", "/cart", "The caller's cart", {}, cartOut), async (c) => c.json(await getCart(db(c), c.env, c.get("auth")), 200));
app.openapi(route("post", "/cart/items", "Add an offer to the cart", { body: jsonBody(cartItemBody) }, cartOut), async (c) => {
  const b = c.req.valid("json");
  return c.json(await addToCart(db(c), c.env, c.get("auth"), b.product_id, b.offer_id), 200);
});
app.openapi(route("delete", "/cart/items/{id}", "Remove a line from the cart", { params: idParam }, cartOut), async (c) =>
  c.json(await removeFromCart(db(c), c.env, c.get("auth"), c.req.valid("param").id), 200),
);

app.openapi(route("post", "/checkout", "Place an order from the cart", { body: jsonBody(checkoutBody) }, checkoutOut), async (c) =>
  c.json(await checkout(db(c), c.env, c.get("auth"), c.req.valid("json"), originOf(c)), 200),
);
app.openapi(route("get", "/orders", "The caller's orders, newest first", {}, ordersPage), async (c) =>
  c.json({ items: await myOrders(db(c), c.get("auth"), originOf(c)) }, 200),
);
app.openapi(route("get", "/orders/all", "Every order, newest first (admins)", { query: ordersQuery }, ordersPage), async (c) => {
  admin(c);
  return c.json({ items: await allOrders(db(c), c.req.valid("query").status, originOf(c)) }, 200);
});
app.openapi(route("get", "/order/{id}", "An order: the caller's own, or any for admins", { params: idParam }, orderOut), async (c) =>
  c.json(await getOrder(db(c), c.get("auth"), c.req.valid("param").id, originOf(c)), 200),
);
app.openapi(
  route("post", "/order/{id}/approve", "Approve a new order: it awaits payment (admins)", { params: idParam }, orderOut),
  async (c) => c.json(await approveOrder(db(c), admin(c), c.req.valid("param").id, originOf(c)), 200),
);
app.openapi(
  route("post", "/order/{id}/reject", "Reject an order not yet paid (admins)", { params: idParam, body: jsonBody(rejectBody) }, orderOut),
  async (c) => c.json(await rejectOrder(db(c), c.env, admin(c), c.req.valid("param").id, c.req.valid("json").reason, originOf(c)), 200),
);
app.openapi(
  route("post", "/order/{id}/mark-paid", "Record the payment of an approved order and deliver it (admins)", { params: idParam }, orderOut),
  async (c) => c.json(await markPaid(db(c), c.env, admin(c), c.req.valid("param").id, originOf(c)), 200),
);

app.openapi(
  route(
    "post",
    "/order/{id}/refund",
    "Give a paid order's money back (through Stripe, or recorded for a manual payment) and revoke its links (admins)",
    { params: idParam },
    orderOut,
  ),
  async (c) => c.json(await refundOrder(db(c), c.env, admin(c), c.req.valid("param").id, originOf(c)), 200),
);

app.openapi(
  route("post", "/order/{id}/cancel", "Cancel an order not yet paid (its buyer, or admins)", { params: idParam }, orderOut),
  async (c) => c.json(await cancelOrder(db(c), c.env, c.get("auth"), c.req.valid("param").id, originOf(c)), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/webhook/stripe",
    security: [],
    tags: ["shop"],
    summary: "Stripe's webhook (open; the Stripe-Signature header decides); idempotent on the event id",
    request: { headers: z.object({ "stripe-signature": z.string().max(2000).optional() }) },
    responses: {
      200: jsonContent(z.object({ received: z.boolean(), duplicate: z.boolean() })),
      400: errorResponse("Bad or missing signature"),
      503: errorResponse("Stripe is not configured"),
    },
  }),
  async (c) => {
    // The signature covers the raw bytes: the body is read as text, never parsed before the check.
    const payload = await c.req.text();
    return c.json(await stripeWebhook(db(c), c.env, payload, c.req.header("stripe-signature"), originOf(c)), 200);
  },
);

export default app;
