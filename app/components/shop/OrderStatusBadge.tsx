import { Badge } from "@mantine/core";
import type { OrderStatus } from "../../../shared/shop/schemas";
import { ru } from "../../i18n/ru";

const colors: Record<OrderStatus, string> = {
  new: "blue",
  awaiting_payment: "yellow",
  paid: "teal",
  delivered: "green",
  rejected: "red",
  cancelled: "gray",
  refunded: "grape",
  disputed: "orange",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge color={colors[status]} variant="light" data-status={status}>
      {ru.shop.statuses[status]}
    </Badge>
  );
}
