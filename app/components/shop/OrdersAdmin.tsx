import { Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useRevalidator, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { orderStatuses } from "../../../functions/shop/schemas";
import { actionsFor, adminActions } from "../../../functions/shop/transitions";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { orderAction, type Order } from "../../lib/shop-api";
import { OrderCard } from "./OrderCard";

const t = ru.shop.admin;
const labels = { approve: t.approve, mark_paid: t.markPaid, reject: t.reject, refund: t.refund } as const;
const paths = { approve: "approve", mark_paid: "mark-paid", reject: "reject", refund: "refund" } as const;
/** Moves that take something back from the buyer: shown in red, and asked about first. */
const undoing = (a: (typeof adminActions)[number]) => a === "reject" || a === "refund";

/** Every order, filtered by status; the buttons are the transition table's moves from each order's status. */
export function OrdersAdmin({ orders }: { orders: Order[] }) {
  const { revalidate } = useRevalidator();
  const [params, setParams] = useSearchParams();
  const [rejecting, setRejecting] = useState<Order | null>(null);
  const [refunding, setRefunding] = useState<Order | null>(null);
  const [reason, setReason] = useState("");
  const act = async (o: Order, action: (typeof adminActions)[number], why?: string) => {
    await runAction(() => orderAction(o.order_id, paths[action], why));
    revalidate();
  };
  return (
    <Stack gap="sm">
      <Select
        placeholder={t.allStatuses}
        clearable
        w={240}
        data={orderStatuses.map((s) => ({ value: s, label: ru.shop.statuses[s] }))}
        value={params.get("status")}
        onChange={(v) => {
          const next = new URLSearchParams(params);
          if (v) next.set("status", v);
          else next.delete("status");
          setParams(next, { replace: true });
        }}
      />
      {orders.length === 0 && <Text c="dimmed">{ru.shop.noOrders}</Text>}
      {orders.map((o) => (
        <OrderCard
          key={o.order_id}
          order={o}
          showBuyer
          actions={actionsFor(o.status, adminActions).map((a) => (
            <Button
              key={a}
              size="xs"
              variant={undoing(a) ? "subtle" : "light"}
              color={undoing(a) ? "red" : undefined}
              onClick={() => (a === "reject" ? setRejecting(o) : a === "refund" ? setRefunding(o) : act(o, a))}
            >
              {labels[a]}
            </Button>
          ))}
        />
      ))}
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title={t.reject}>
        <Stack>
          <TextInput label={t.rejectReason} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button
              color="red"
              onClick={async () => {
                if (rejecting) await act(rejecting, "reject", reason);
                setRejecting(null);
                setReason("");
              }}
            >
              {t.reject}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={refunding !== null} onClose={() => setRefunding(null)} title={t.refund}>
        <Stack>
          <Text>{t.refundConfirm}</Text>
          <Group justify="flex-end">
            <Button
              color="red"
              onClick={async () => {
                if (refunding) await act(refunding, "refund");
                setRefunding(null);
              }}
            >
              {t.refund}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
