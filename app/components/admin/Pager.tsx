import { Button, Group, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";

/**
 * Prev/next over skip/take pages. The API sends no totals: a full page means there may be more, a short
 * page is the last one (spec 9).
 */
export function Pager({
  page,
  rows,
  pageSize,
  onChange,
}: {
  page: number;
  rows: number;
  pageSize: number;
  onChange: (page: number) => void;
}) {
  if (page === 0 && rows < pageSize) return null;
  return (
    <Group gap="xs">
      <Button variant="default" size="xs" disabled={page === 0} onClick={() => onChange(page - 1)}>
        {ru.admin.prev}
      </Button>
      <Text size="sm" c="dimmed">
        {ru.admin.page(page + 1)}
      </Text>
      <Button variant="default" size="xs" disabled={rows < pageSize} onClick={() => onChange(page + 1)}>
        {ru.admin.next}
      </Button>
    </Group>
  );
}
