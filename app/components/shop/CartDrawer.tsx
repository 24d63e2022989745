import { ActionIcon, Button, Drawer, Group, Stack, Text } from "@mantine/core";
import { useNavigate, useRevalidator } from "@remix-run/react";
import { formatPrice } from "../../../shared/shop/schemas";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { removeFromCart, type Cart } from "../../lib/shop-api";

const t = ru.shop;

/** The cart at the side of every shop screen: its lines at today's prices, and the way to checkout. */
export function CartDrawer({ cart, opened, onClose }: { cart: Cart; opened: boolean; onClose: () => void }) {
  const { revalidate } = useRevalidator();
  const navigate = useNavigate();
  return (
    <Drawer opened={opened} onClose={onClose} title={t.cart} position="right">
      {cart.items.length === 0 ? (
        <Text c="dimmed">{t.cartEmpty}</Text>
      ) : (
        <Stack gap="sm">
          {cart.items.map((i) => (
            <Group key={i.item_id} justify="space-between" wrap="nowrap" data-testid="cart-line">
              <div>
                <Text fw={500}>{i.title}</Text>
                <Text size="xs" c="dimmed">
                  {i.licence_name} · {t.variants[i.variant]}
                </Text>
              </div>
              <Group gap={4} wrap="nowrap">
                <Text size="sm">{formatPrice(i.price, i.currency)}</Text>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t.remove}
                  onClick={async () => {
                    await runAction(() => removeFromCart(i.item_id));
                    revalidate();
                  }}
                >
                  ×
                </ActionIcon>
              </Group>
            </Group>
          ))}
          <Group justify="space-between">
            <Text fw={600}>{t.total}</Text>
            <Text fw={600}>{cart.currency ? formatPrice(cart.total, cart.currency) : t.mixedCurrencies}</Text>
          </Group>
          <Button
            onClick={() => {
              onClose();
              navigate("/shop/checkout");
            }}
          >
            {t.toCheckout}
          </Button>
        </Stack>
      )}
    </Drawer>
  );
}
