import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { deliverOrder } from "./delivery";
import { getOrder, transition } from "./orders";

/** The admin's moves on an order (manual payment); each is a row of ./transitions.ts, anything else 409. */

export async function approveOrder(db: Db, auth: AuthUser, id: string, origin: string) {
  await transition(db, auth, id, "approve");
  return getOrder(db, auth, id, origin);
}

export async function rejectOrder(db: Db, auth: AuthUser, id: string, reason: string, origin: string) {
  await transition(db, auth, id, "reject", { reason }, { reason });
  return getOrder(db, auth, id, origin);
}

/** The buyer (or an admin) withdraws an order not yet paid; someone else's order is 404 like a missing one. */
export async function cancelOrder(db: Db, auth: AuthUser, id: string, origin: string) {
  await getOrder(db, auth, id, origin);
  await transition(db, auth, id, "cancel");
  return getOrder(db, auth, id, origin);
}

/** Records the payment and delivers at once: links, licence fields, mail, then delivered. */
export async function markPaid(db: Db, env: Env, auth: AuthUser, id: string, origin: string) {
  const order = await transition(db, auth, id, "mark_paid", { paidAt: nowSeconds() }, { provider: "manual" });
  await deliverOrder(db, env, order, origin);
  return getOrder(db, auth, id, origin);
}
