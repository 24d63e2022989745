import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { shareLinks } from "../../db/schema";
import type { Env } from "../../functions/lib/env";
import { db } from "./fixtures";
import { api } from "./helpers";
import { buyer, mkLicence, mkProduct, shelf } from "./shop.helpers";

/**
 * Stripe Checkout: the Worker's Stripe client (the library, on fetch) talks to a fake Stripe API handed over as
 * env.STRIPE_FETCH, so the test stays offline while the library builds and parses the real requests; webhooks
 * are signed with the library's own test-header helper.
 */

const secret = "whsec_test_secret_for_the_shop_suite";
const sessions: { id: string; form: URLSearchParams; auth: string | null }[] = [];

const fakeStripe = {
  async fetch(input: RequestInfo | URL, init?: RequestInit) {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/checkout/sessions")
      return Response.json({ error: { message: "not faked" } }, { status: 404 });
    const id = `cs_test_${crypto.randomUUID().replaceAll("-", "")}`;
    sessions.push({
      id,
      form: new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer())),
      auth: req.headers.get("Authorization"),
    });
    return Response.json({ id, object: "checkout.session", url: `https://checkout.stripe.test/c/pay/${id}`, payment_status: "unpaid" });
  },
};

const stripeEnv = {
  ...(env as unknown as Env),
  STRIPE_SECRET_KEY: "sk_test_shop",
  STRIPE_WEBHOOK_SECRET: secret,
  STRIPE_FETCH: fakeStripe,
} as Env;

async function signed(event: Record<string, unknown>, key = secret) {
  const payload = JSON.stringify(event);
  const header = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: key,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, header };
}

const completed = (sessionId: string, orderId: string, eventId = `evt_${crypto.randomUUID().replaceAll("-", "")}`) => ({
  id: eventId,
  object: "event",
  type: "checkout.session.completed",
  data: {
    object: {
      id: sessionId,
      object: "checkout.session",
      payment_status: "paid",
      client_reference_id: orderId,
      metadata: { order_id: orderId },
    },
  },
});

const hook = (payload: string, header: string) =>
  api("/api/shop/webhook/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    env: stripeEnv,
  });

async function stripeOrder() {
  const s = await shelf();
  const lic = await mkLicence({ duration_days: 5 });
  const product = await mkProduct({ asset_id: s.asset }, [[lic.licence_id, "original", 12_345]]);
  const user = await buyer(s.group);
  const add = await api("/api/shop/cart/items", {
    method: "POST",
    json: { product_id: product.product_id, offer_id: product.offers[0].offer_id },
    bearer: user.bearer,
    env: stripeEnv,
  });
  expect(add.status).toBe(200);
  expect(((await add.json()) as { providers: string[] }).providers).toEqual(["manual", "stripe"]);
  const res = await api("/api/shop/checkout", { method: "POST", json: {}, bearer: user.bearer, env: stripeEnv });
  expect(res.status).toBe(200);
  return { s, user, product, placed: (await res.json()) as { order_id: string; status: string; payment_url: string } };
}

const orderOf = async (id: string, bearer: string) =>
  (await (await api(`/api/shop/order/${id}`, { bearer, env: stripeEnv })).json()) as any;

describe("Stripe Checkout", () => {
  it("creates a Checkout session through the library and answers its payment page", async () => {
    const { placed, product } = await stripeOrder();
    expect(placed.status).toBe("awaiting_payment");
    const session = sessions.at(-1)!;
    expect(placed.payment_url).toBe(`https://checkout.stripe.test/c/pay/${session.id}`);
    expect(session.auth).toBe("Bearer sk_test_shop");
    expect(session.form.get("mode")).toBe("payment");
    expect(session.form.get("metadata[order_id]")).toBe(placed.order_id);
    expect(session.form.get("line_items[0][price_data][unit_amount]")).toBe("12345");
    expect(session.form.get("line_items[0][price_data][currency]")).toBe("rub");
    expect(session.form.get("line_items[0][price_data][product_data][name]")).toContain(product.title);
  });

  it("a signed completed-session webhook delivers once; a replay changes nothing", async () => {
    const { placed, user, s } = await stripeOrder();
    const session = sessions.at(-1)!;
    const { payload, header } = await signed(completed(session.id, placed.order_id));
    const first = await hook(payload, header);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    const delivered = await orderOf(placed.order_id, user.bearer);
    expect(delivered.status).toBe("delivered");
    expect(delivered.items[0].delivery_url).toMatch(/\/sl\/[0-9A-Za-z]{22}$/);
    const links = async () => (await db().select().from(shareLinks).where(eq(shareLinks.assetId, s.asset))).length;
    expect(await links()).toBe(1);

    const replay = await hook(payload, header);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    // Another event for the same, already paid session does not deliver either.
    const again = await signed(completed(session.id, placed.order_id));
    expect((await hook(again.payload, again.header)).status).toBe(200);
    expect(await links()).toBe(1);
    expect((await orderOf(placed.order_id, user.bearer)).items[0].delivery_url).toBe(delivered.items[0].delivery_url);
  });

  it("refuses a bad signature (400) and leaves the order waiting", async () => {
    const { placed, user } = await stripeOrder();
    const session = sessions.at(-1)!;
    const event = completed(session.id, placed.order_id);
    const forged = await signed(event, "whsec_someone_else");
    expect((await hook(forged.payload, forged.header)).status).toBe(400);
    const good = await signed(event);
    const tampered = good.payload.replace('"paid"', '"paid" ');
    expect((await hook(tampered, good.header)).status).toBe(400);
    expect((await hook(good.payload, "")).status).toBe(400);
    expect((await orderOf(placed.order_id, user.bearer)).status).toBe("awaiting_payment");
    // The refused attempts claimed nothing: the genuine event still goes through.
    expect((await hook(good.payload, good.header)).status).toBe(200);
    expect((await orderOf(placed.order_id, user.bearer)).status).toBe("delivered");
  });

  it("ignores a completed session that is not the order's", async () => {
    const { placed, user } = await stripeOrder();
    const { payload, header } = await signed(completed("cs_test_other", placed.order_id));
    expect((await hook(payload, header)).status).toBe(200);
    expect((await orderOf(placed.order_id, user.bearer)).status).toBe("awaiting_payment");
  });
});
