import { z } from "@hono/zod-openapi";
import { defineRoute, errorAnswers, errorResponse, jsonBody, jsonContent, routeDefiner } from "../lib/route-contract";
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

/**
 * /api/shop, served by ./routes.ts and called by the browser through call() (docs/decisions/070-route-contracts.md):
 * licences, products, cart, orders, payment (docs/decisions/048-shop.md).
 */
const route = routeDefiner(
  ["shop"],
  errorAnswers({
    403: "Admins only",
    404: "Not found, or not visible to the caller",
    409: "Not allowed in the order's status, an empty cart, a licence in use",
  }),
);

export const listLicences = route("get", "/shop/licences", "All licences", {}, z.array(licenceOut));
export const createLicence = route("post", "/shop/licences", "Create a licence (admins)", { body: jsonBody(licenceBody) }, licenceOut);
export const patchLicence = route(
  "patch",
  "/shop/licences/{id}",
  "Change a licence (admins); placed orders keep their copy",
  { params: idParam, body: jsonBody(licencePatch) },
  licenceOut,
);
export const deleteLicence = route("delete", "/shop/licences/{id}", "Delete a licence no offer uses (admins)", { params: idParam }, okOut);
export const listProducts = route(
  "get",
  "/shop/products",
  "Published products the caller may see (admins: all=true for unpublished too)",
  { query: productsQuery },
  productsPage,
);
export const getProduct = route("get", "/shop/product/{id}", "A product with its offers", { params: idParam }, productOut);
export const createProduct = route(
  "post",
  "/shop/product",
  "Create a product from an asset or a group, unpublished (admins)",
  { body: jsonBody(productBody) },
  productIdOut,
);
export const patchProduct = route(
  "patch",
  "/shop/product/{id}",
  "Change a product and its offers (admins)",
  { params: idParam, body: jsonBody(productPatch) },
  productOut,
);
export const deleteProduct = route(
  "delete",
  "/shop/product/{id}",
  "Delete a product (admins); orders keep their snapshot",
  { params: idParam },
  okOut,
);
export const publishProduct = route(
  "post",
  "/shop/product/{id}/publish",
  "Publish or withdraw a product (admins)",
  { params: idParam, body: jsonBody(publishBody) },
  productOut,
);
export const getCart = route("get", "/shop/cart", "The caller's cart", {}, cartOut);
export const addToCart = route("post", "/shop/cart/items", "Add an offer to the cart", { body: jsonBody(cartItemBody) }, cartOut);
export const removeFromCart = route("delete", "/shop/cart/items/{id}", "Remove a line from the cart", { params: idParam }, cartOut);
export const checkout = route("post", "/shop/checkout", "Place an order from the cart", { body: jsonBody(checkoutBody) }, checkoutOut);
export const myOrders = route("get", "/shop/orders", "The caller's orders, newest first", {}, ordersPage);
export const allOrders = route("get", "/shop/orders/all", "Every order, newest first (admins)", { query: ordersQuery }, ordersPage);
export const getOrder = route("get", "/shop/order/{id}", "An order: the caller's own, or any for admins", { params: idParam }, orderOut);
export const approveOrder = route(
  "post",
  "/shop/order/{id}/approve",
  "Approve a new order: it awaits payment (admins)",
  { params: idParam },
  orderOut,
);
export const rejectOrder = route(
  "post",
  "/shop/order/{id}/reject",
  "Reject an order not yet paid (admins)",
  { params: idParam, body: jsonBody(rejectBody) },
  orderOut,
);
export const markPaid = route(
  "post",
  "/shop/order/{id}/mark-paid",
  "Record the payment of an approved order and deliver it (admins)",
  { params: idParam },
  orderOut,
);
export const refundOrder = route(
  "post",
  "/shop/order/{id}/refund",
  "Give a paid order's money back (through Stripe, or recorded for a manual payment) and revoke its links (admins)",
  { params: idParam },
  orderOut,
);
export const cancelOrder = route(
  "post",
  "/shop/order/{id}/cancel",
  "Cancel an order not yet paid (its buyer, or admins)",
  { params: idParam },
  orderOut,
);
export const stripeWebhook = defineRoute({
  method: "post",
  path: "/shop/webhook/stripe",
  security: [],
  tags: ["shop"],
  summary: "Stripe's webhook (open; the Stripe-Signature header decides); idempotent on the event id",
  request: { headers: z.object({ "stripe-signature": z.string().max(2000).optional() }) },
  responses: {
    200: jsonContent(z.object({ received: z.boolean(), duplicate: z.boolean() })),
    400: errorResponse("Bad or missing signature"),
    503: errorResponse("Stripe is not configured"),
  },
});
