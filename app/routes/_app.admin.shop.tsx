import { Stack, Tabs, Title } from "@mantine/core";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { LicencesAdmin } from "../components/shop/LicencesAdmin";
import { OrdersAdmin } from "../components/shop/OrdersAdmin";
import { ProductsAdmin } from "../components/shop/ProductsAdmin";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";
import { allOrders, listLicences, listProducts } from "../lib/shop-api";

export const meta = pageMeta(ru.pages.shopAdmin);

const tabs = ["orders", "products", "licences"] as const;

export const clientLoader = screenLoader(async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const [products, licences, orders] = await Promise.all([
    listProducts({ all: true, take: 100 }, request.signal),
    listLicences(request.signal),
    allOrders(params.get("status"), request.signal),
  ]);
  return { products: products.items, licences, orders: orders.items };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /admin/shop: orders to approve and mark paid, products and their offers, licences. */
export default function ShopAdmin() {
  const { products, licences, orders } = useLoaderData<typeof clientLoader>();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((x) => x === params.get("tab")) ?? "orders";
  const t = ru.shop.admin;
  return (
    <Stack gap="md">
      <Title order={2}>{ru.pages.shopAdmin}</Title>
      <Tabs value={tab} onChange={(v) => setParams(v && v !== "orders" ? { tab: v } : {}, { replace: true })}>
        <Tabs.List>
          <Tabs.Tab value="orders">{t.orders}</Tabs.Tab>
          <Tabs.Tab value="products">{t.products}</Tabs.Tab>
          <Tabs.Tab value="licences">{t.licences}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="orders" pt="md">
          <OrdersAdmin orders={orders} />
        </Tabs.Panel>
        <Tabs.Panel value="products" pt="md">
          <ProductsAdmin products={products} licences={licences} />
        </Tabs.Panel>
        <Tabs.Panel value="licences" pt="md">
          <LicencesAdmin licences={licences} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
