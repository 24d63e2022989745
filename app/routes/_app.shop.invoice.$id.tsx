import { Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useLoaderData } from "@remix-run/react";
import { formatPrice } from "../../shared/shop/schemas";
import { OrderStatusBadge } from "../components/shop/OrderStatusBadge";
import { ru } from "../i18n/ru";
import { formatDate } from "../lib/format";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";
import { getOrder } from "../lib/shop-api";

const t = ru.shop;
export const meta = pageMeta(ru.pages.shopInvoice);

export const clientLoader = screenLoader(async ({ params, request }) => ({ order: await getOrder(params.id!, request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

// Printing keeps the invoice alone on a white page: the browser's "Save as PDF" makes the PDF.
const printCss = `@media print {
  header, nav, .no-print, .mantine-AppShell-header { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; }
  body, .invoice { background: #fff !important; color: #000 !important; }
  .invoice * { color: #000 !important; }
}`;

/** The invoice of an order (manual payment): the buyer prints it or saves it as PDF. */
export default function Invoice() {
  const { order } = useLoaderData<typeof clientLoader>();
  return (
    <Stack gap="md" className="invoice" maw={800}>
      <style>{printCss}</style>
      <Group justify="space-between">
        <Title order={3}>{t.invoiceTitle(order.order_id.slice(0, 8).toUpperCase())}</Title>
        <Button className="no-print" variant="light" onClick={() => window.print()}>
          {t.print}
        </Button>
      </Group>
      <Group gap="md">
        <Text>
          {t.date}: {formatDate(order.ctime * 1000)}
        </Text>
        <Text>
          {t.buyer}: {order.user_name ?? order.user_id}
          {order.email ? ` <${order.email}>` : ""}
        </Text>
        <OrderStatusBadge status={order.status} />
      </Group>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>{t.items}</Table.Th>
            <Table.Th>{t.licence}</Table.Th>
            <Table.Th>{t.price}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {order.items.map((i, n) => (
            <Table.Tr key={i.item_id}>
              <Table.Td>{n + 1}</Table.Td>
              <Table.Td>
                {i.title} ({t.variants[i.variant]})
              </Table.Td>
              <Table.Td>
                {i.licence_name}
                {i.licence_terms ? `: ${i.licence_terms}` : ""}
              </Table.Td>
              <Table.Td>{formatPrice(i.price, i.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text fw={700} ta="right" size="lg">
        {t.total}: {formatPrice(order.total, order.currency)}
      </Text>
    </Stack>
  );
}
