import { Button, Card, Group, Radio, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useNavigate, useRouteLoaderData } from "@remix-run/react";
import { useState } from "react";
import { formatPrice } from "../../functions/shop/schemas";
import { ru } from "../i18n/ru";
import { runAction } from "../lib/actions";
import { pageMeta } from "../lib/meta";
import { showInfo } from "../lib/notify";
import { checkout, type Cart } from "../lib/shop-api";
import { LineItemCells } from "../components/shop/LineItemCells";

const t = ru.shop;
export const meta = pageMeta(ru.pages.shopCheckout);

/** Checkout: the cart once more, where to mail the links, how to pay. Stripe sends the buyer to its own page. */
export default function Checkout() {
  const { cart } = useRouteLoaderData("routes/_app.shop") as { cart: Cart };
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  // Stripe first when the shop has it: paying at once beats waiting for an admin.
  const [provider, setProvider] = useState<"manual" | "stripe">(cart.providers.includes("stripe") ? "stripe" : "manual");
  const [busy, setBusy] = useState(false);
  const place = async () => {
    setBusy(true);
    const placed = await runAction(() => checkout({ provider, email: email.trim() || undefined }));
    setBusy(false);
    if (!placed) return;
    if (placed.payment_url) {
      window.location.assign(placed.payment_url);
      return;
    }
    showInfo(t.placed);
    navigate("/shop/orders");
  };
  return (
    <Card withBorder maw={720}>
      <Stack gap="md">
        <Title order={3}>{t.checkout}</Title>
        {cart.items.length === 0 ? (
          <Text c="dimmed">{t.cartEmpty}</Text>
        ) : (
          <>
            <Table>
              <Table.Tbody>
                {cart.items.map((i) => (
                  <Table.Tr key={i.item_id}>
                    <LineItemCells item={i} />
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group justify="space-between">
              <Text fw={600}>{t.total}</Text>
              <Text fw={600}>{cart.currency ? formatPrice(cart.total, cart.currency) : t.mixedCurrencies}</Text>
            </Group>
            <TextInput
              label={t.email}
              description={t.emailHint}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <Radio.Group label={t.provider} value={provider} onChange={(v) => setProvider(v as "manual" | "stripe")}>
              <Stack gap={6} mt={6}>
                <Radio value="manual" label={t.providers.manual} />
                {cart.providers.includes("stripe") && <Radio value="stripe" label={t.providers.stripe} />}
              </Stack>
            </Radio.Group>
            <Button onClick={place} loading={busy} disabled={!cart.currency}>
              {t.placeOrder}
            </Button>
          </>
        )}
      </Stack>
    </Card>
  );
}
