import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { events, shareLinks } from "../../db/schema";
import type { Env } from "../../functions/lib/env";
import { admin, db } from "./fixtures";
import { api } from "./helpers";
import { buyer, mkLicence, mkProduct, ok, order, shelf } from "./shop.helpers";

/**
 * Money going back (docs/decisions/048-shop.md): an admin's refund (through Stripe, or recorded for a manual
 * payment), a refund or a dispute made on Stripe's side (its webhooks), and a payment that arrives for an order
 * already cancelled. Each revokes the order's delivery links. Stripe's HTTP is answered by a local stand-in handed
 * over as env.STRIPE_FETCH (as in shop-stripe.test.ts): the library builds and parses the real requests.
 */

const secret = "whsec_test_secret_for_the_refund_suite";
/** Checkout sessions the stand-in made, with the payment intent a test says paid them. */
const sessions = new Map<string, { paymentIntent: string | null }>();
const refunds: { form: URLSearchParams; idempotencyKey: string | null }[] = [];
const expired: string[] = [];

const fakeStripe = {
  async fetch(input: RequestInfo | URL, init?: RequestInit) {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const sessionJson = (id: string) => ({
      id,
      object: "checkout.session",
      url: `https://checkout.stripe.test/c/pay/${id}`,
      payment_status: sessions.get(id)?.paymentIntent ? "paid" : "unpaid",
      payment_intent: sessions.get(id)?.paymentIntent ?? null,
    });
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const id = `cs_test_${crypto.randomUUID().replaceAll("-", "")}`;
      sessions.set(id, { paymentIntent: null });
      return Response.json(sessionJson(id));
    }
    if (req.method === "GET" && url.pathname === "/v1/checkout/sessions") {
      const pi = url.searchParams.get("payment_intent");
      const data = [...sessions].filter(([, s]) => s.paymentIntent === pi).map(([id]) => sessionJson(id));
      return Response.json({ object: "list", data, has_more: false, url: "/v1/checkout/sessions" });
    }
    const expire = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/);
    if (req.method === "POST" && expire && sessions.has(expire[1])) {
      expired.push(expire[1]);
      return Response.json({ ...sessionJson(expire[1]), status: "expired" });
    }
    const one = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (req.method === "GET" && one && sessions.has(one[1])) return Response.json(sessionJson(one[1]));
    if (req.method === "POST" && url.pathname === "/v1/refunds") {
      const form = new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer()));
      refunds.push({ form, idempotencyKey: req.headers.get("Idempotency-Key") });
      return Response.json({
        id: `re_${crypto.randomUUID().slice(0, 8)}`,
        object: "refund",
        status: "succeeded",
        payment_intent: form.get("payment_intent"),
      });
    }
    return Response.json({ error: { message: "not faked" } }, { status: 404 });
  },
};

const stripeEnv = {
  ...(env as unknown as Env),
  STRIPE_SECRET_KEY: "sk_test_refunds",
  STRIPE_WEBHOOK_SECRET: secret,
  STRIPE_FETCH: fakeStripe,
} as Env;

const evtId = () => `evt_${crypto.randomUUID().replaceAll("-", "")}`;

async function hook(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({ id: evtId(), object: "event", type, data: { object } });
  const header = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  const res = await api("/api/shop/webhook/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    env: stripeEnv,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The buyer pays on Stripe's page: the session gets a payment intent, and Stripe sends checkout.session.completed. */
async function pay(sessionId: string, orderId: string) {
  const pi = `pi_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
  sessions.set(sessionId, { paymentIntent: pi });
  await hook("checkout.session.completed", {
    id: sessionId,
    object: "checkout.session",
    payment_status: "paid",
    payment_intent: pi,
    client_reference_id: orderId,
    metadata: { order_id: orderId },
  });
  return pi;
}

const charge = (pi: string, refunded: boolean, amountRefunded = 12_345) => ({
  id: `ch_${pi.slice(3)}`,
  object: "charge",
  payment_intent: pi,
  amount: 12_345,
  amount_refunded: amountRefunded,
  refunded,
});

const orderOf = async (id: string, bearer: string) =>
  (await (await api(`/api/shop/order/${id}`, { bearer, env: stripeEnv })).json()) as {
    status: string;
    reason: string | null;
    items: { delivery_url: string | null }[];
  };

/** The order's delivery links, live or revoked. */
const linksOf = async (asset: string) =>
  db().select({ id: shareLinks.linkId, revokedAt: shareLinks.revokedAt }).from(shareLinks).where(eq(shareLinks.assetId, asset));

async function stripeOrder() {
  const s = await shelf();
  const lic = await mkLicence({ duration_days: 5 });
  const product = await mkProduct({ asset_id: s.asset }, [[lic.licence_id, "original", 12_345]]);
  const user = await buyer(s.group);
  const line = { product_id: product.product_id, offer_id: product.offers[0].offer_id };
  expect((await api("/api/shop/cart/items", { method: "POST", json: line, bearer: user.bearer, env: stripeEnv })).status).toBe(200);
  const res = await api("/api/shop/checkout", { method: "POST", json: {}, bearer: user.bearer, env: stripeEnv });
  expect(res.status).toBe(200);
  const placed = (await res.json()) as { order_id: string; payment_url: string };
  const sessionId = placed.payment_url.split("/").pop()!;
  return { s, user, orderId: placed.order_id, sessionId };
}

/** A Stripe order, paid and delivered: its one link is live. */
async function deliveredStripeOrder() {
  const o = await stripeOrder();
  const pi = await pay(o.sessionId, o.orderId);
  expect((await orderOf(o.orderId, o.user.bearer)).status).toBe("delivered");
  expect((await linksOf(o.s.asset)).map((l) => l.revokedAt)).toEqual([null]);
  return { ...o, pi };
}

const refundAsAdmin = async (orderId: string, bearer?: string) =>
  api(`/api/shop/order/${orderId}/refund`, { method: "POST", bearer: bearer ?? (await admin()), env: stripeEnv });

describe("an admin's refund", () => {
  it("of a Stripe order refunds its payment through Stripe once, revokes its links and marks it refunded", async () => {
    const o = await deliveredStripeOrder();
    const before = refunds.length;
    const res = await refundAsAdmin(o.orderId);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("refunded");
    expect(refunds.length).toBe(before + 1);
    const asked = refunds.at(-1)!;
    expect(asked.form.get("payment_intent")).toBe(o.pi);
    expect(asked.form.get("metadata[order_id]")).toBe(o.orderId);
    expect(asked.idempotencyKey).toBe(`shop-refund-${o.orderId}`);
    expect((await linksOf(o.s.asset)).every((l) => l.revokedAt !== null)).toBe(true);
    const link = (await orderOf(o.orderId, o.user.bearer)).items[0].delivery_url!;
    expect((await api(new URL(link).pathname)).status).not.toBe(200);
    // Stripe then reports its refund: nothing more happens, and a second refund is refused.
    await hook("charge.refunded", charge(o.pi, true));
    expect((await orderOf(o.orderId, o.user.bearer)).status).toBe("refunded");
    expect((await refundAsAdmin(o.orderId)).status).toBe(409);
    expect(refunds.length).toBe(before + 1);
  });

  it("of a manual order records the refund and revokes its links; an order not paid cannot be refunded", async () => {
    const s = await shelf();
    const lic = await mkLicence();
    const product = await mkProduct({ asset_id: s.asset }, [[lic.licence_id, "proxy", 500]]);
    const user = await buyer(s.group);
    const placed = await order(user.bearer, [{ product_id: product.product_id, offer_id: product.offers[0].offer_id }], {
      provider: "manual",
    });
    expect((await refundAsAdmin(placed.order_id)).status).toBe(409);
    await ok(`/api/shop/order/${placed.order_id}/approve`, { method: "POST" });
    expect((await refundAsAdmin(placed.order_id)).status).toBe(409);
    await ok(`/api/shop/order/${placed.order_id}/mark-paid`, { method: "POST" });
    expect((await linksOf(s.asset)).map((l) => l.revokedAt)).toEqual([null]);
    const before = refunds.length;
    expect((await refundAsAdmin(placed.order_id, user.bearer)).status).toBe(403);
    const res = await refundAsAdmin(placed.order_id);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("refunded");
    expect(refunds.length).toBe(before);
    expect((await linksOf(s.asset)).every((l) => l.revokedAt !== null)).toBe(true);
    const kinds = (await db().select({ kind: events.kind }).from(events).where(eq(events.entityId, placed.order_id))).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["shop.order.refund", "shop.order.links-revoked"]));
  });
});

describe("Stripe's money events", () => {
  it("a full refund made on Stripe's side revokes the links and marks the order; a partial one only is recorded", async () => {
    const partial = await deliveredStripeOrder();
    await hook("charge.refunded", charge(partial.pi, false, 1_000));
    expect((await orderOf(partial.orderId, partial.user.bearer)).status).toBe("delivered");
    expect((await linksOf(partial.s.asset)).map((l) => l.revokedAt)).toEqual([null]);

    const full = await deliveredStripeOrder();
    await hook("charge.refunded", charge(full.pi, true));
    const after = await orderOf(full.orderId, full.user.bearer);
    expect(after.status).toBe("refunded");
    expect((await linksOf(full.s.asset)).every((l) => l.revokedAt !== null)).toBe(true);
  });

  it("a dispute revokes the links and marks the order disputed", async () => {
    const o = await deliveredStripeOrder();
    await hook("charge.dispute.created", {
      id: "dp_test",
      object: "dispute",
      charge: `ch_${o.pi.slice(3)}`,
      payment_intent: o.pi,
      amount: 12_345,
      reason: "fraudulent",
      status: "needs_response",
    });
    const after = await orderOf(o.orderId, o.user.bearer);
    expect(after.status).toBe("disputed");
    expect(after.reason).toContain("fraudulent");
    expect((await linksOf(o.s.asset)).every((l) => l.revokedAt !== null)).toBe(true);
  });

  it("a payment that arrives after the buyer cancelled is refunded, never kept without delivery", async () => {
    const o = await stripeOrder();
    expect((await api(`/api/shop/order/${o.orderId}/cancel`, { method: "POST", bearer: o.user.bearer, env: stripeEnv })).status).toBe(200);
    // Its payment page is closed on Stripe's side; one paid just before that still comes, and goes back.
    expect(expired).toContain(o.sessionId);
    const before = refunds.length;
    const pi = await pay(o.sessionId, o.orderId);
    expect(refunds.length).toBe(before + 1);
    expect(refunds.at(-1)!.form.get("payment_intent")).toBe(pi);
    expect((await orderOf(o.orderId, o.user.bearer)).status).toBe("refunded");
    expect(await linksOf(o.s.asset)).toEqual([]);
    // Stripe's charge.refunded for that refund changes nothing more.
    await hook("charge.refunded", charge(pi, true));
    expect((await orderOf(o.orderId, o.user.bearer)).status).toBe("refunded");
    expect(refunds.length).toBe(before + 1);
  });
});
