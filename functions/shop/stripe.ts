import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { shopOrders, shopWebhookEvents, type ShopOrder } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { deliverOrder } from "./delivery";
import { transition } from "./order-transition";
import type { PaymentStart } from "./payment-types";
import { type EndingAction, endOrder, endsFrom } from "./refunds";

/**
 * Stripe Checkout (docs/decisions/048-shop.md): the buyer pays on Stripe's page; Stripe tells the Worker by
 * a signed webhook. The client runs on fetch (Workers have no Node http); STRIPE_FETCH lets tests answer
 * Stripe's HTTP locally while the library's own request and response code runs as in production.
 * The library (some 200 modules) is imported when a payment needs it, not with the Worker.
 */
const stripeLibrary = async () => (await import("stripe")).default;

export async function stripeClient(env: Env) {
  if (!env.STRIPE_SECRET_KEY) throw new ApiError("unavailable", "Оплата через Stripe не настроена");
  const fetcher = env.STRIPE_FETCH;
  const Stripe = await stripeLibrary();
  return new Stripe(env.STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(fetcher ? (input, init) => fetcher.fetch(input as never, init as never) : undefined),
    maxNetworkRetries: 1,
  });
}

export async function stripeCheckout(env: Env, order: PaymentStart, origin: string) {
  try {
    const session = await (await stripeClient(env)).checkout.sessions.create({
      mode: "payment",
      client_reference_id: order.orderId,
      metadata: { order_id: order.orderId },
      // On the payment too, so a refund or a dispute seen in Stripe's dashboard names the order.
      payment_intent_data: { metadata: { order_id: order.orderId } },
      ...(order.email ? { customer_email: order.email } : {}),
      line_items: order.items.map((i) => ({
        quantity: 1,
        price_data: {
          currency: i.currency.toLowerCase(),
          unit_amount: i.price,
          product_data: { name: `${i.title} — ${i.licenceName}` },
        },
      })),
      success_url: `${origin}/shop/orders?paid=${order.orderId}`,
      cancel_url: `${origin}/shop/orders`,
    });
    return { status: "awaiting_payment" as const, providerRef: session.id, paymentUrl: session.url ?? undefined };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError("unavailable", "Платёжная система не ответила: попробуйте позже", undefined, undefined, err);
  }
}

/** An id that Stripe may send expanded (an object) or not (a string). */
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));

const stripeDown = (err: unknown) =>
  err instanceof ApiError ? err : new ApiError("unavailable", "Платёжная система не ответила: попробуйте позже", undefined, undefined, err);

/**
 * Refunds what an order's Checkout session was paid with: the payment intent from the webhook when it is at hand,
 * else from the session. The idempotency key makes a repeated refund of one order (two admins at once, a retry)
 * one refund on Stripe's side. Answers the refund's id.
 */
export async function stripeRefund(env: Env, order: ShopOrder, paymentIntent?: string | null) {
  try {
    const stripe = await stripeClient(env);
    const pi =
      paymentIntent ?? (order.providerRef ? idOf((await stripe.checkout.sessions.retrieve(order.providerRef)).payment_intent) : null);
    if (!pi) throw new ApiError("conflict", "Stripe не знает платежа по этому заказу: возвращать нечего");
    const refund = await stripe.refunds.create(
      { payment_intent: pi, metadata: { order_id: order.orderId } },
      { idempotencyKey: `shop-refund-${order.orderId}` },
    );
    return refund.id;
  } catch (err) {
    throw stripeDown(err);
  }
}

/**
 * Closes the payment page of a Stripe order withdrawn before payment (cancelled, rejected), so the buyer cannot pay
 * it any more. Best effort: a page already paid cannot be closed, and that payment is refunded when its
 * checkout.session.completed comes (stripeWebhook); a failure is recorded, the withdrawal stands.
 */
export async function expireCheckout(db: Db, env: Env, order: ShopOrder) {
  if (order.provider !== "stripe" || !order.providerRef || !env.STRIPE_SECRET_KEY) return;
  try {
    await (await stripeClient(env)).checkout.sessions.expire(order.providerRef);
  } catch (err) {
    await eventInsert(db, {
      kind: "shop.order.checkout-expire-failed",
      entityType: "shop_order",
      entityId: order.orderId,
      data: { message: err instanceof Error ? err.message : String(err) },
    }).run();
  }
}

/** The order a payment intent paid: Stripe's Checkout session for it, then the order made with that session. */
async function orderOfPayment(db: Db, env: Env, paymentIntent: string | null): Promise<ShopOrder | null> {
  if (!paymentIntent) return null;
  let sessionId: string | undefined;
  try {
    sessionId = (await (await stripeClient(env)).checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 })).data[0]?.id;
  } catch (err) {
    throw stripeDown(err);
  }
  if (!sessionId) return null;
  const order = await db
    .select()
    .from(shopOrders)
    .where(and(eq(shopOrders.provider, "stripe"), eq(shopOrders.providerRef, sessionId)))
    .get();
  return order ?? null;
}

const ignored = (db: Db, orderId: string | undefined, eventId: string, why: string) =>
  eventInsert(db, { kind: "shop.webhook.ignored", entityType: "shop_order", entityId: orderId, data: { event: eventId, why } }).run();

/**
 * A refund made on Stripe's side (charge.refunded) or a dispute opened (charge.dispute.created): the order ends
 * and its links are revoked. A partial refund is recorded as an event only (a discount after the fact is the
 * admin's call); an order that the event cannot apply to is recorded as ignored.
 */
async function moneyBack(db: Db, env: Env, event: Stripe.Event) {
  const dispute = event.type === "charge.dispute.created" ? (event.data.object as Stripe.Dispute) : null;
  const charge = event.type === "charge.refunded" ? (event.data.object as Stripe.Charge) : null;
  const order = await orderOfPayment(db, env, idOf(dispute?.payment_intent ?? charge?.payment_intent));
  if (!order) return ignored(db, undefined, event.id, "no order for this payment");
  if (charge && !charge.refunded) {
    await eventInsert(db, {
      kind: "shop.order.partial-refund",
      entityType: "shop_order",
      entityId: order.orderId,
      data: { event: event.id, amount: charge.amount, amount_refunded: charge.amount_refunded },
    }).run();
    return;
  }
  const action: EndingAction = dispute ? "dispute" : "refund";
  if (!endsFrom(action, order.status)) return ignored(db, order.orderId, event.id, `order is ${order.status}`);
  const reason = dispute ? `Платёж оспорен через банк (${dispute.reason})` : "Деньги возвращены через Stripe";
  await endOrder(db, null, order.orderId, action, { reason }, { provider: "stripe", event: event.id });
}

/**
 * The webhook: the signature is checked with the library (SubtleCrypto: Workers have no Node crypto), then the
 * event id is claimed in shop_webhook_events; a replay finds it claimed and changes nothing. A failure while
 * handling gives the claim back, so Stripe's retry can do the work.
 */
export async function stripeWebhook(db: Db, env: Env, payload: string, signature: string | undefined, origin: string) {
  if (!env.STRIPE_WEBHOOK_SECRET || !env.STRIPE_SECRET_KEY) throw new ApiError("unavailable", "Оплата через Stripe не настроена");
  let event: Stripe.Event;
  const Stripe = await stripeLibrary();
  try {
    event = await Stripe.webhooks.constructEventAsync(
      payload,
      signature ?? "",
      env.STRIPE_WEBHOOK_SECRET,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
  } catch {
    throw new ApiError("bad_request", "Подпись Stripe не сходится");
  }
  const session = event.type === "checkout.session.completed" ? (event.data.object as Stripe.Checkout.Session) : null;
  const orderId = session?.metadata?.order_id ?? session?.client_reference_id ?? null;
  const claimed = await db
    .insert(shopWebhookEvents)
    .values({ eventId: event.id, provider: "stripe", kind: event.type, orderId, ctime: nowSeconds() })
    .onConflictDoNothing()
    .returning({ id: shopWebhookEvents.eventId });
  if (!claimed.length) return { received: true, duplicate: true };
  try {
    if (session && orderId && session.payment_status === "paid") await paid(db, env, orderId, session, event.id, origin);
    if (event.type === "charge.refunded" || event.type === "charge.dispute.created") await moneyBack(db, env, event);
  } catch (err) {
    await db.delete(shopWebhookEvents).where(eq(shopWebhookEvents.eventId, event.id));
    throw err;
  }
  return { received: true, duplicate: false };
}

async function paid(db: Db, env: Env, orderId: string, session: Stripe.Checkout.Session, eventId: string, origin: string) {
  const order = await db.select().from(shopOrders).where(eq(shopOrders.orderId, orderId)).get();
  // A session that is not this order's (a forged metadata would need the signing secret, but be strict).
  if (order?.provider !== "stripe" || order.providerRef !== session.id) {
    await ignored(db, orderId, eventId, "not the order's session");
    return;
  }
  // Paid after the buyer cancelled or an admin rejected it (the payment page was still open): the money goes back.
  if (endsFrom("return_payment", order.status)) {
    const refund = order.status === "refunded" ? null : await stripeRefund(env, order, idOf(session.payment_intent));
    await endOrder(db, null, orderId, "return_payment", {}, { provider: "stripe", event: eventId, refund });
    return;
  }
  if (order.status !== "awaiting_payment") return;
  const moved = await transition(db, null, orderId, "pay", { paidAt: nowSeconds() }, { provider: "stripe", event: eventId });
  await deliverOrder(db, env, moved, origin);
}
