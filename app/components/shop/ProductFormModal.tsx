import { Button, Group, Modal, Stack, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { productBody, productPatch } from "../../../shared/shop/schemas";
import { ru } from "../../i18n/ru";
import { applyServerErrors } from "../../lib/form-errors";
import { createProduct, patchProduct, type Licence, type Product } from "../../lib/shop-api";
import { ObjectPicker, type Picked } from "../admin/EntityPickers";
import { emptyOffer, type OfferDraft, OffersEditor, offersOut } from "./OffersEditor";

const t = ru.shop.admin;

type Values = { source: Picked; title: string; description: string; offers: OfferDraft[] };

/** The payload of POST (create) or PATCH (edit) /api/shop/product. */
const payloadOf = (v: Values, create: boolean) => ({
  ...(create ? (v.source.type === "group" ? { group_id: v.source.option?.value ?? "" } : { asset_id: v.source.option?.value ?? "" }) : {}),
  title: v.title,
  description: v.description,
  offers: offersOut(v.offers),
});
/** The payload's fields on the form's: the asset or group is the picker's. */
const fieldOf = (field: string) => field.replace(/^(asset_id|group_id)$/, "source");
const createRules = zod4Resolver(productBody);
const editRules = zod4Resolver(productPatch);

/** Create a product from an asset or a group, or edit one's title, description and offers: the server's rules on each. */
export function ProductFormModal({
  product,
  licences,
  onClose,
  onSaved,
}: {
  product: Product | null;
  licences: Licence[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const form = useForm<Values>({
    initialValues: {
      source: { type: "asset", option: null, folder: null },
      title: product?.title ?? "",
      description: product?.description ?? "",
      offers: product
        ? product.offers.map((o) => ({
            offer_id: o.offer_id,
            licence_id: o.licence_id,
            variant: o.variant,
            price: o.price / 100,
            currency: o.currency,
          }))
        : [emptyOffer()],
    },
    validate: (v) => {
      const errors = (product ? editRules : createRules)(payloadOf(v, !product));
      return Object.fromEntries(Object.entries(errors).map(([path, message]) => [fieldOf(path), message]));
    },
  });
  const [busy, setBusy] = useState(false);
  const save = async (v: Values) => {
    setBusy(true);
    try {
      const payload = payloadOf(v, !product);
      await (product ? patchProduct(product.product_id, payload) : createProduct(payload));
      onSaved();
    } catch (err) {
      applyServerErrors(form, err, fieldOf);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={product ? product.title : t.newProduct} size="xl">
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="sm">
          {!product && (
            <ObjectPicker
              value={form.values.source}
              onChange={(v) => {
                form.setFieldValue("source", v);
                if (v.option && !form.values.title) form.setFieldValue("title", v.option.label);
              }}
              error={form.errors.source as string | undefined}
            />
          )}
          <TextInput label={t.title_} data-testid="product-title" {...form.getInputProps("title")} />
          <Textarea label={t.description} autosize minRows={2} {...form.getInputProps("description")} />
          <OffersEditor
            value={form.values.offers}
            onChange={(v) => form.setFieldValue("offers", v)}
            licences={licences}
            errors={form.errors}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              {product ? t.save : t.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
