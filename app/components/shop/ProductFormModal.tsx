import { Button, Group, Modal, Stack, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { createProduct, patchProduct, type Licence, type Product } from "../../lib/shop-api";
import { ObjectPicker, type Picked } from "../admin/EntityPickers";
import { emptyOffer, type OfferDraft, OffersEditor, offersOut } from "./OffersEditor";

const t = ru.shop.admin;

/** Create a product from an asset or a group, or edit one's title, description and offers. */
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
  const [source, setSource] = useState<Picked>({ type: "asset", option: null, folder: null });
  const [title, setTitle] = useState(product?.title ?? "");
  const [description, setDescription] = useState(product?.description ?? "");
  const [offers, setOffers] = useState<OfferDraft[]>(
    product
      ? product.offers.map((o) => ({
          offer_id: o.offer_id,
          licence_id: o.licence_id,
          variant: o.variant,
          price: o.price / 100,
          currency: o.currency,
        }))
      : [emptyOffer()],
  );
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    const done = await runAction(() =>
      product
        ? patchProduct(product.product_id, { title, description, offers: offersOut(offers) })
        : createProduct({
            ...(source.type === "group" ? { group_id: source.option?.value ?? "" } : { asset_id: source.option?.value ?? "" }),
            title,
            description,
            offers: offersOut(offers),
          }),
    );
    setBusy(false);
    if (done) onSaved();
  };
  return (
    <Modal opened onClose={onClose} title={product ? product.title : t.newProduct} size="xl">
      <Stack gap="sm">
        {!product && (
          <ObjectPicker
            value={source}
            onChange={(v) => {
              setSource(v);
              if (v.option && !title) setTitle(v.option.label);
            }}
          />
        )}
        <TextInput label={t.title_} value={title} onChange={(e) => setTitle(e.currentTarget.value)} data-testid="product-title" />
        <Textarea label={t.description} value={description} onChange={(e) => setDescription(e.currentTarget.value)} autosize minRows={2} />
        <OffersEditor value={offers} onChange={setOffers} licences={licences} />
        <Group justify="flex-end">
          <Button onClick={save} loading={busy}>
            {product ? t.save : t.create}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
