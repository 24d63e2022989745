import type { OrderStatus, ShopOrderItem } from "../../db/schema";

/** What a payment provider (./payment.ts, ./stripe.ts) is given to start an order's payment, and what it answers. */
export interface PaymentStart {
  orderId: string;
  total: number;
  currency: string;
  email: string | null;
  items: ShopOrderItem[];
}

export interface PaymentProvider {
  start(order: PaymentStart, origin: string): Promise<{ status: OrderStatus; providerRef?: string; paymentUrl?: string }>;
}
