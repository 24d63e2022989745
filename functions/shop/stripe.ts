import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { shopOrders, shopWebhookEvents } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { deliverOrder } from "./delivery";
import { transition } from "./orders";
import type { PaymentStart } from "./payment";

/**
 * Stripe Checkout (docs/decisions/048-shop.md): the buyer pays on Stripe's page; Stripe tells the Worker by
 * a signed webhook. The client runs on fetch (Workers have no Node http); STRIPE_FETCH lets tests answer
 * Stripe's HTTP locally while the library's own request and response code runs as in production.
 */
export function stripeClient(env: Env) {
  if (!env.STRIPE_SECRET_KEY) throw new ApiError("unavailable", "Оплата через Stripe не настроена");
  const fetcher = env.STRIPE_FETCH;
  return new Stripe(env.STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(fetcher ? (input, init) => fetcher.fetch(input as never, init as never) : undefined),
    maxNetworkRetries: 1,
  });
}

export async function stripeCheckout(env: Env, order: PaymentStart, origin: string) {
  try {
    const session = await stripeClient(env).checkout.sessions.create({
      mode: "payment",
      client_reference_id: order.orderId,
      metadata: { order_id: order.orderId },
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

/**
 * The webhook: the signature is checked with the library (SubtleCrypto: Workers have no Node crypto), then the
 * event id is claimed in shop_webhook_events; a replay finds it claimed and changes nothing. A failure while
 * handling gives the claim back, so Stripe's retry can do the work.
 */
export async function stripeWebhook(db: Db, env: Env, payload: string, signature: string | undefined, origin: string) {
  if (!env.STRIPE_WEBHOOK_SECRET || !env.STRIPE_SECRET_KEY) throw new ApiError("unavailable", "Оплата через Stripe не настроена");
  let event: Stripe.Event;
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
    if (session && orderId && session.payment_status === "paid") await paid(db, env, orderId, session.id, event.id, origin);
  } catch (err) {
    await db.delete(shopWebhookEvents).where(eq(shopWebhookEvents.eventId, event.id));
    throw err;
  }
  return { received: true, duplicate: false };
}

async function paid(db: Db, env: Env, orderId: string, sessionId: string, eventId: string, origin: string) {
  const order = await db.select().from(shopOrders).where(eq(shopOrders.orderId, orderId)).get();
  // A session that is not this order's (a forged metadata would need the signing secret, but be strict).
  if (order?.provider !== "stripe" || order.providerRef !== sessionId) {
    await eventInsert(db, { kind: "shop.webhook.ignored", entityType: "shop_order", entityId: orderId, data: { event: eventId } }).run();
    return;
  }
  if (order.status !== "awaiting_payment") return;
  const moved = await transition(db, null, orderId, "pay", { paidAt: nowSeconds() }, { provider: "stripe", event: eventId });
  await deliverOrder(db, env, moved, origin);
}
