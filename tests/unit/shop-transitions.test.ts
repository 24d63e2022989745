import { describe, expect, it } from "vitest";
import { formatPrice, orderStatuses } from "../../shared/shop/schemas";
import { actionsFor, adminActions, buyerActions, finalOrderStatuses, orderActions, orderTable } from "../../shared/shop/transitions";

/** The order state machine the API enforces and the UI reads its buttons from (docs/decisions/048-shop.md). */
describe("the order transition table", () => {
  it("offers the admin approve on a new order, mark-paid once approved, a refund once paid, nothing once settled", () => {
    expect(actionsFor("new", adminActions)).toEqual(["approve", "reject"]);
    expect(actionsFor("awaiting_payment", adminActions)).toEqual(["mark_paid", "reject"]);
    for (const s of ["paid", "delivered"] as const) expect(actionsFor(s, adminActions), s).toEqual(["refund"]);
    for (const s of ["rejected", "cancelled", "refunded", "disputed"] as const) expect(actionsFor(s, adminActions), s).toEqual([]);
  });

  it("lets the buyer cancel only before payment", () => {
    const cancellable = orderStatuses.filter((s) => actionsFor(s, buyerActions).length > 0);
    expect(cancellable).toEqual(["new", "awaiting_payment"]);
  });

  it("leaves a final status only when money goes back, never a refunded or disputed one, and delivers only from paid", () => {
    const moneyBack: string[] = ["refund", "return_payment", "dispute"];
    for (const a of orderActions) {
      for (const from of orderTable[a].from) {
        if (finalOrderStatuses.includes(from)) expect(moneyBack, `${a} from ${from}`).toContain(a);
        expect(from === "refunded" || from === "disputed", `${a} from ${from}`).toBe(false);
      }
    }
    expect(orderActions.filter((a) => orderTable[a].to === "delivered").map((a) => orderTable[a].from)).toEqual([["paid"]]);
  });
});

describe("formatPrice", () => {
  it("shows minor units in the currency's major ones", () => {
    expect(formatPrice(250_000, "RUB").replace(/\s/g, " ")).toBe("2 500,00 ₽");
    expect(formatPrice(199, "EUR").replace(/\s/g, " ")).toBe("1,99 €");
  });
});
