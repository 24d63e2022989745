import { ActionIcon, Button, Group, Input, NumberInput, Select, Stack, TextInput } from "@mantine/core";
import type { ReactNode } from "react";
import { DEFAULT_CURRENCY } from "../../../shared/shop/schemas";
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

/** The offers of a product's form; `errors` are the form's, by path ("offers.1.licence_id", "offers" for the list). */
export function OffersEditor({
  value,
  onChange,
  licences,
  errors,
}: {
  value: OfferDraft[];
  onChange: (v: OfferDraft[]) => void;
  licences: Licence[];
  errors: Record<string, ReactNode>;
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
            error={errors[`offers.${i}.licence_id`]}
            style={{ flex: 2 }}
          />
          <Select
            label={t.variant}
            data={(["original", "proxy"] as const).map((v) => ({ value: v, label: t.variants[v] }))}
            value={o.variant}
            onChange={(v) => set(i, { variant: (v ?? "original") as OfferDraft["variant"] })}
            error={errors[`offers.${i}.variant`]}
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
            error={errors[`offers.${i}.price`]}
            style={{ flex: 1 }}
          />
          <TextInput
            label={t.admin.currency}
            value={o.currency}
            onChange={(e) => set(i, { currency: e.currentTarget.value })}
            error={errors[`offers.${i}.currency`]}
            w={80}
          />
          <ActionIcon variant="subtle" color="red" aria-label={t.remove} onClick={() => onChange(value.filter((_, n) => n !== i))} mb={4}>
            ×
          </ActionIcon>
        </Group>
      ))}
      {errors.offers && <Input.Error>{errors.offers}</Input.Error>}
      <Button variant="subtle" size="xs" onClick={() => onChange([...value, emptyOffer()])} style={{ alignSelf: "flex-start" }}>
        {t.admin.addOffer}
      </Button>
    </Stack>
  );
}
