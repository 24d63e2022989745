import { Button, Card, Group, Radio, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useNavigate, useRouteLoaderData } from "@remix-run/react";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { checkoutBody, formatPrice } from "../../shared/shop/schemas";
import { ru } from "../i18n/ru";
import { applyServerErrors } from "../lib/form-errors";
import { pageMeta } from "../lib/meta";
import { showInfo } from "../lib/notify";
import { checkout, type Cart } from "../lib/shop-api";
import { LineItemCells } from "../components/shop/LineItemCells";

const t = ru.shop;
export const meta = pageMeta(ru.pages.shopCheckout);

type Values = { email: string; provider: "manual" | "stripe" };
/** The payload of POST /api/shop/checkout: an empty address is none. */
const payloadOf = (v: Values) => ({ provider: v.provider, email: v.email.trim() || undefined });
const rules = zod4Resolver(checkoutBody);

/** Checkout: the cart once more, where to mail the links, how to pay. Stripe sends the buyer to its own page. */
export default function Checkout() {
  const { cart } = useRouteLoaderData("routes/_app.shop") as { cart: Cart };
  const navigate = useNavigate();
  const form = useForm<Values>({
    // Stripe first when the shop has it: paying at once beats waiting for an admin.
    initialValues: { email: "", provider: cart.providers.includes("stripe") ? "stripe" : "manual" },
    validate: (v) => rules(payloadOf(v)),
  });
  const [busy, setBusy] = useState(false);
  const place = async (v: Values) => {
    setBusy(true);
    try {
      const placed = await checkout(payloadOf(v));
      if (placed.payment_url) {
        window.location.assign(placed.payment_url);
        return;
      }
      showInfo(t.placed);
      navigate("/shop/orders");
    } catch (err) {
      applyServerErrors(form, err);
    } finally {
      setBusy(false);
    }
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
            <form onSubmit={form.onSubmit(place)} noValidate>
              <Stack gap="md">
                <TextInput label={t.email} description={t.emailHint} type="email" {...form.getInputProps("email")} />
                <Radio.Group label={t.provider} {...form.getInputProps("provider")}>
                  <Stack gap={6} mt={6}>
                    <Radio value="manual" label={t.providers.manual} />
                    {cart.providers.includes("stripe") && <Radio value="stripe" label={t.providers.stripe} />}
                  </Stack>
                </Radio.Group>
                <Button type="submit" loading={busy} disabled={!cart.currency}>
                  {t.placeOrder}
                </Button>
              </Stack>
            </form>
          </>
        )}
      </Stack>
    </Card>
  );
}
