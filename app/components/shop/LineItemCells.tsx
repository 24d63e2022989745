import { Table } from "@mantine/core";
import { formatPrice } from "../../../shared/shop/schemas";
import { ru } from "../../i18n/ru";
import type { Cart } from "../../lib/shop-api";

/** What every line of a cart or an order has: the item, under which licence and in which variant. */
type LineItem = Pick<Cart["items"][number], "title" | "licence_name" | "variant" | "price" | "currency">;

/** A cart's or an order's line as cells: the item, its licence and variant, its price. */
export function LineItemCells({ item }: { item: LineItem }) {
  return (
    <>
      <Table.Td>{item.title}</Table.Td>
      <Table.Td>
        {item.licence_name} · {ru.shop.variants[item.variant]}
      </Table.Td>
      <Table.Td>{formatPrice(item.price, item.currency)}</Table.Td>
    </>
  );
}
