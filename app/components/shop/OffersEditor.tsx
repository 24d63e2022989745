import { ActionIcon, Button, Group, NumberInput, Select, Stack, TextInput } from "@mantine/core";
import { DEFAULT_CURRENCY } from "../../../functions/shop/schemas";
import { ru } from "../../i18n/ru";
import type { Licence } from "../../lib/shop-api";

const t = ru.shop;

/** An offer being edited: the price in major units (рубли) as typed; sent as minor units. */
export interface OfferDraft {
  offer_id?: string;
  licence_id: string | null;
  variant: "original" | "proxy";
  price: number;
  currency: string;
}

export const emptyOffer = (): OfferDraft => ({ licence_id: null, variant: "original", price: 0, currency: DEFAULT_CURRENCY });

/** Drafts to the API's offers: prices in minor units, rounded once here. */
export const offersOut = (drafts: OfferDraft[]) =>
  drafts.map((d) => ({
    ...(d.offer_id ? { offer_id: d.offer_id } : {}),
    licence_id: d.licence_id ?? "",
    variant: d.variant,
    price: Math.round(d.price * 100),
    currency: d.currency.trim().toUpperCase(),
  }));

export function OffersEditor({
  value,
  onChange,
  licences,
}: {
  value: OfferDraft[];
  onChange: (v: OfferDraft[]) => void;
  licences: Licence[];
}) {
  const set = (i: number, patch: Partial<OfferDraft>) => onChange(value.map((o, n) => (n === i ? { ...o, ...patch } : o)));
  return (
    <Stack gap="xs">
      {value.map((o, i) => (
        <Group key={o.offer_id ?? i} gap="xs" align="end" wrap="nowrap" data-testid="offer-draft">
          <Select
            label={t.licence}
            data={licences.map((l) => ({ value: l.licence_id, label: l.name }))}
            value={o.licence_id}
            onChange={(v) => set(i, { licence_id: v })}
            style={{ flex: 2 }}
          />
          <Select
            label={t.variant}
            data={(["original", "proxy"] as const).map((v) => ({ value: v, label: t.variants[v] }))}
            value={o.variant}
            onChange={(v) => set(i, { variant: (v ?? "original") as OfferDraft["variant"] })}
            allowDeselect={false}
            style={{ flex: 1 }}
          />
          <NumberInput
            label={t.price}
            description={t.admin.priceHint}
            min={0}
            decimalScale={2}
            value={o.price}
            onChange={(v) => set(i, { price: typeof v === "number" ? v : Number(v) || 0 })}
            style={{ flex: 1 }}
          />
          <TextInput label={t.admin.currency} value={o.currency} onChange={(e) => set(i, { currency: e.currentTarget.value })} w={80} />
          <ActionIcon variant="subtle" color="red" aria-label={t.remove} onClick={() => onChange(value.filter((_, n) => n !== i))} mb={4}>
            ×
          </ActionIcon>
        </Group>
      ))}
      <Button variant="subtle" size="xs" onClick={() => onChange([...value, emptyOffer()])} style={{ alignSelf: "flex-start" }}>
        {t.admin.addOffer}
      </Button>
    </Stack>
  );
}
