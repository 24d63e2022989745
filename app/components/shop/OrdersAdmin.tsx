import { Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useRevalidator, useSearchParams } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { orderStatuses, rejectBody } from "../../../shared/shop/schemas";
import { actionsFor, adminActions } from "../../../shared/shop/transitions";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { applyServerErrors } from "../../lib/form-errors";
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
  const act = async (o: Order, action: (typeof adminActions)[number]) => {
    await runAction(() => orderAction(o.order_id, paths[action]));
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
        {rejecting && (
          <RejectForm
            key={rejecting.order_id}
            order={rejecting}
            onDone={() => {
              setRejecting(null);
              revalidate();
            }}
          />
        )}
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

/** Why the order is refused: the buyer is told (POST reject's rule: a reason is required). */
function RejectForm({ order, onDone }: { order: Order; onDone: () => void }) {
  const form = useForm({ initialValues: { reason: "" }, validate: zod4Resolver(rejectBody) });
  const reject = async ({ reason }: { reason: string }) => {
    try {
      await orderAction(order.order_id, "reject", reason);
      onDone();
    } catch (err) {
      applyServerErrors(form, err);
    }
  };
  return (
    <form onSubmit={form.onSubmit(reject)} noValidate>
      <Stack>
        <TextInput label={t.rejectReason} {...form.getInputProps("reason")} />
        <Group justify="flex-end">
          <Button type="submit" color="red">
            {t.reject}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
