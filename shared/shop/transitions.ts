import type { OrderStatus } from "./schemas";

/**
 * The order state machine (docs/decisions/048-shop.md), shared with the UI (which buttons an order shows).
 * Every change is a conditional UPDATE … WHERE status IN (from), so two racing actions cannot both win;
 * anything else answers 409.
 */
export const orderActions = ["approve", "reject", "mark_paid", "cancel", "refund", "pay", "deliver", "return_payment", "dispute"] as const;
export type OrderAction = (typeof orderActions)[number];

/** action → the statuses it is valid in, and the status it leads to. */
export const orderTable: Record<OrderAction, { from: readonly OrderStatus[]; to: OrderStatus }> = {
  /** An admin accepts a manual order: the buyer may now pay by the invoice. */
  approve: { from: ["new"], to: "awaiting_payment" },
  reject: { from: ["new", "awaiting_payment"], to: "rejected" },
  /** An admin records the payment of a manual order. */
  mark_paid: { from: ["awaiting_payment"], to: "paid" },
  /** The buyer withdraws an order not yet paid. */
  cancel: { from: ["new", "awaiting_payment"], to: "cancelled" },
  /** The money goes back (an admin's refund, or one made on Stripe's side): the delivery links are revoked. */
  refund: { from: ["paid", "delivered"], to: "refunded" },
  /** The payment provider confirms (Stripe's checkout.session.completed). */
  pay: { from: ["awaiting_payment"], to: "paid" },
  /** The system made the delivery links. */
  deliver: { from: ["paid"], to: "delivered" },
  /** A payment that arrives for an order already cancelled or rejected is sent back, never kept without delivery. */
  return_payment: { from: ["cancelled", "rejected"], to: "refunded" },
  /** The payer disputes the charge with their bank (Stripe's charge.dispute.created): the delivery links are revoked. */
  dispute: { from: ["paid", "delivered"], to: "disputed" },
};

/** What an admin may do to an order (routes and buttons), in the order the UI shows them. */
export const adminActions = ["approve", "mark_paid", "reject", "refund"] as const satisfies readonly OrderAction[];
/** What the buyer may do to their own order. */
export const buyerActions = ["cancel"] as const satisfies readonly OrderAction[];

export const actionsFor = <A extends OrderAction>(status: OrderStatus, among: readonly A[]): A[] =>
  among.filter((a) => orderTable[a].from.includes(status));

export const finalOrderStatuses: readonly OrderStatus[] = ["delivered", "rejected", "cancelled", "refunded", "disputed"];
