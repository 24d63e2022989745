import { Button, Group, Stack, Tabs, Title } from "@mantine/core";
import { Outlet, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { CartDrawer } from "../components/shop/CartDrawer";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";
import { getCart } from "../lib/shop-api";

export const meta = pageMeta(ru.pages.shop);

/** The cart is the layout's: every shop screen shows its count, and adding to it reloads this loader. */
export const clientLoader = screenLoader(async ({ request }) => ({ cart: await getCart(request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /shop: the catalogue and the buyer's orders, with the cart drawer (docs/decisions/048-shop.md). */
export default function ShopLayout() {
  const { cart } = useLoaderData<typeof clientLoader>();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const tab = location.pathname.startsWith("/shop/orders") ? "orders" : "catalogue";
  return (
    <Stack gap="md">
      <Group justify="space-between" className="no-print">
        <Group gap="lg">
          <Title order={2}>{ru.pages.shop}</Title>
          <Tabs value={tab} onChange={(v) => navigate(v === "orders" ? "/shop/orders" : "/shop")}>
            <Tabs.List>
              <Tabs.Tab value="catalogue">{ru.shop.catalogue}</Tabs.Tab>
              <Tabs.Tab value="orders">{ru.shop.myOrders}</Tabs.Tab>
            </Tabs.List>
          </Tabs>
        </Group>
        <Button variant="light" onClick={() => setOpen(true)} data-testid="cart-button">
          {ru.shop.cartCount(cart.items.length)}
        </Button>
      </Group>
      <CartDrawer cart={cart} opened={open} onClose={() => setOpen(false)} />
      <Outlet />
    </Stack>
  );
}
