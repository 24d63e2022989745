import { Button, Stack, Text } from "@mantine/core";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { actionsFor, buyerActions } from "../../shared/shop/transitions";
import { OrderCard } from "../components/shop/OrderCard";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader, useRevalidateEvery } from "../lib/route-data";
import { runAction } from "../lib/actions";
import { cancelOrder, myOrders } from "../lib/shop-api";

export const meta = pageMeta(ru.pages.shopOrders);

export const clientLoader = screenLoader(async ({ request }) => ({ orders: (await myOrders(request.signal)).items }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** "Мои заказы": each order's status and, once delivered, its download links; refreshes while any is open. */
export default function MyOrders() {
  const { orders } = useLoaderData<typeof clientLoader>();
  const { revalidate } = useRevalidator();
  const waiting = orders.some((o) => o.status === "new" || o.status === "awaiting_payment" || o.status === "paid");
  useRevalidateEvery(waiting ? 5000 : 0);
  if (!orders.length) return <Text c="dimmed">{ru.shop.noOrders}</Text>;
  return (
    <Stack gap="md">
      {orders.map((o) => (
        <OrderCard
          key={o.order_id}
          order={o}
          actions={actionsFor(o.status, buyerActions).map((a) => (
            <Button
              key={a}
              size="xs"
              variant="subtle"
              color="red"
              onClick={async () => {
                await runAction(() => cancelOrder(o.order_id));
                revalidate();
              }}
            >
              {ru.shop.cancel}
            </Button>
          ))}
        />
      ))}
    </Stack>
  );
}
