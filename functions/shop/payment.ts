import type { PaymentProvider as ProviderName } from "../../db/schema";
import type { Env } from "../lib/env";
import type { PaymentProvider } from "./payment-types";
import { stripeCheckout } from "./stripe";

/**
 * Payment providers (docs/decisions/048-shop.md). Each starts an order's payment; confirmation comes back as an
 * order transition: mark_paid by an admin (manual), pay from the verified webhook (Stripe). No card data ever
 * reaches the Worker: Stripe's own page takes it.
 */
/** Manual: the order waits for an admin's approval, then for payment by the invoice. */
const manual: PaymentProvider = { start: async () => ({ status: "new" }) };

export const stripeConfigured = (env: Env) => Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);

/** The provider asked for, else Stripe when configured, else manual; null when Stripe is asked for but not set up. */
export function providerFor(env: Env, wanted?: ProviderName): ProviderName | null {
  if (wanted === "stripe") return stripeConfigured(env) ? "stripe" : null;
  return wanted ?? (stripeConfigured(env) ? "stripe" : "manual");
}

export function paymentProvider(env: Env, name: ProviderName): PaymentProvider {
  return name === "stripe" ? { start: (order, origin) => stripeCheckout(env, order, origin) } : manual;
}
