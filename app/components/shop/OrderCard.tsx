import { Anchor, Button, Card, Group, Stack, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatPrice } from "../../../shared/shop/schemas";
import { ru } from "../../i18n/ru";
import { formatDate, formatDateTime } from "../../lib/format";
import type { Order } from "../../lib/shop-api";
import { OrderStatusBadge } from "./OrderStatusBadge";
import { LineItemCells } from "./LineItemCells";

const t = ru.shop;

/** An order: status, lines with their delivery links once delivered, the invoice, and the caller's actions. */
export function OrderCard({ order, actions, showBuyer }: { order: Order; actions?: ReactNode; showBuyer?: boolean }) {
  return (
    <Card withBorder data-testid="order" data-order={order.order_id}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="sm">
            <Text fw={600}>
              {t.order} {order.order_id.slice(0, 8)}
            </Text>
            <OrderStatusBadge status={order.status} />
            <Text size="sm" c="dimmed">
              {formatDateTime(order.ctime * 1000)}
            </Text>
            {showBuyer && <Text size="sm">{order.user_name ?? order.user_id}</Text>}
          </Group>
          <Group gap="xs">
            {order.payment_url && (
              <Button component="a" href={order.payment_url} size="xs">
                {t.pay}
              </Button>
            )}
            <Anchor component={Link} to={`/shop/invoice/${order.order_id}`} size="sm">
              {t.invoice}
            </Anchor>
            {actions}
          </Group>
        </Group>
        {order.reason && (
          <Text size="sm" c="red">
            {t.reason}: {order.reason}
          </Text>
        )}
        <Table>
          <Table.Tbody>
            {order.items.map((i) => (
              <Table.Tr key={i.item_id}>
                <LineItemCells item={i} />
                <Table.Td>
                  <Stack gap={2}>
                    {i.deliveries.map((d) => (
                      <Group key={d.url} gap={6}>
                        <Anchor href={d.url} target="_blank" rel="noreferrer" data-testid="delivery-link">
                          {t.download}: {d.name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {t.deliveryUntil(formatDate(d.ends_at * 1000))}
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text fw={600} ta="right">
          {t.total}: {formatPrice(order.total, order.currency)}
        </Text>
      </Stack>
    </Card>
  );
}
