import { Badge, Button, Group, Image, Stack, Table, Text, Title } from "@mantine/core";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { formatPrice } from "../../shared/shop/schemas";
import { viewableVariantTypes } from "../../shared/assets/variant-rights";
import { Thumb } from "../components/mam/Thumb";
import { MediaView } from "../components/viewer/MediaView";
import { latestVariants, playVariant, shownMime } from "../components/viewer/viewer-api";
import { ru } from "../i18n/ru";
import { runAction } from "../lib/actions";
import { showInfo } from "../lib/notify";
import { screenLoader } from "../lib/route-data";
import { addToCart, getProduct, type Product } from "../lib/shop-api";
import { DataTable } from "../components/ui/DataTable";
import { BackLink } from "../components/ui/BackLink";

const t = ru.shop;

/** A video or audio product plays its proxy (what `read` gets, never the original the buyer has not paid for). */
async function playerOf(product: Product, signal: AbortSignal) {
  if (!product.asset_id || !/^(video|audio)\//.test(product.mimetype ?? "")) return null;
  const proxy = (await latestVariants(product.asset_id, signal)).find((v) => viewableVariantTypes.includes(v.variant_type));
  return proxy ? { src: (await playVariant(proxy.variant_id)).link, mime: shownMime(proxy, product.mimetype ?? "") } : null;
}

export const clientLoader = screenLoader(async ({ params, request }) => {
  const product = await getProduct(params.id!, request.signal);
  return { product, player: await playerOf(product, request.signal).catch(() => null) };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** A product: its preview, description and offers, each with "В корзину". */
export default function ProductView() {
  const { product, player } = useLoaderData<typeof clientLoader>();
  const { revalidate } = useRevalidator();
  return (
    <Stack gap="md">
      <BackLink to="/shop" label={t.back} />
      <Group align="flex-start" gap="xl" wrap="wrap">
        {player ? (
          <div style={{ width: 480, maxWidth: "100%", aspectRatio: "16 / 9" }}>
            <MediaView src={player.src} mime={player.mime} name={product.title} />
          </div>
        ) : product.preview ? (
          <Image src={product.preview} alt="" maw={480} radius="sm" />
        ) : (
          <Thumb type={product.group_id ? "group" : "asset"} mime={product.mimetype} size={240} />
        )}
        <Stack gap="sm" style={{ flex: 1, minWidth: 320 }}>
          <Group gap="sm">
            <Title order={3}>{product.title}</Title>
            {product.group_id && <Badge variant="light">{t.collectionBadge}</Badge>}
            {!product.published && <Badge color="gray">{t.unpublished}</Badge>}
          </Group>
          {product.description && <Text style={{ whiteSpace: "pre-wrap" }}>{product.description}</Text>}
          <Title order={4}>{t.offers}</Title>
          <DataTable head={[t.licence, t.variant, t.price, ""]} rows={product.offers}>
            {(o) => (
              <Table.Tr key={o.offer_id} data-testid="offer">
                <Table.Td>
                  <Text size="sm">{o.licence_name}</Text>
                  <Text size="xs" c="dimmed">
                    {o.licence_terms} · {t.duration(o.duration_days)}
                  </Text>
                </Table.Td>
                <Table.Td>{t.variants[o.variant]}</Table.Td>
                <Table.Td>{formatPrice(o.price, o.currency)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    onClick={async () => {
                      if (await runAction(() => addToCart(product.product_id, o.offer_id))) {
                        showInfo(t.added);
                        revalidate();
                      }
                    }}
                  >
                    {t.addToCart}
                  </Button>
                </Table.Td>
              </Table.Tr>
            )}
          </DataTable>
        </Stack>
      </Group>
    </Stack>
  );
}
