import { Badge, Card, Group, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { formatPrice } from "../../../shared/shop/schemas";
import { ru } from "../../i18n/ru";
import type { Product } from "../../lib/shop-api";
import { Thumb } from "../mam/Thumb";

/** A catalogue tile: preview, title, the lowest price. */
export function ProductCard({ product }: { product: Product }) {
  const cheapest = [...product.offers].sort((a, b) => a.price - b.price)[0];
  return (
    <Card component={Link} to={`/shop/product/${product.product_id}`} withBorder padding="sm" data-testid="product-card">
      <Card.Section style={{ display: "flex", justifyContent: "center", padding: 8 }}>
        <Thumb type={product.group_id ? "group" : "asset"} mime={product.mimetype} preview={product.preview} size={160} />
      </Card.Section>
      <Text fw={500} lineClamp={2}>
        {product.title}
      </Text>
      <Group justify="space-between" mt={4}>
        {cheapest ? (
          <Text size="sm" c="dimmed">
            {ru.shop.from} {formatPrice(cheapest.price, cheapest.currency)}
          </Text>
        ) : (
          <span />
        )}
        {product.group_id && <Badge variant="light">{ru.shop.collectionBadge}</Badge>}
      </Group>
    </Card>
  );
}
