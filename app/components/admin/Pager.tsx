import { Button, Group, Text } from "@mantine/core";
import { useSearchParams } from "@remix-run/react";
import { PAGE_SIZE } from "../../../shared/lib/constants";
import { ru } from "../../i18n/ru";

/**
 * Prev/next over skip/take pages; the page is ?page= in the address (listParams reads it). The API sends no
 * totals: a full page means there may be more, a short page is the last one.
 */
export function Pager({ page, rows }: { page: number; rows: number }) {
  const [, setSearchParams] = useSearchParams();
  if (page === 1 && rows < PAGE_SIZE) return null;
  const show = (next: number) =>
    setSearchParams(
      (params) => {
        if (next > 1) params.set("page", String(next));
        else params.delete("page");
        return params;
      },
      { preventScrollReset: true },
    );
  return (
    <Group gap="xs">
      <Button variant="default" size="xs" disabled={page === 1} onClick={() => show(page - 1)}>
        {ru.admin.prev}
      </Button>
      <Text size="sm" c="dimmed">
        {ru.admin.page(page)}
      </Text>
      <Button variant="default" size="xs" disabled={rows < PAGE_SIZE} onClick={() => show(page + 1)}>
        {ru.admin.next}
      </Button>
    </Group>
  );
}
