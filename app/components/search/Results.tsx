import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { formatDateTime, formatSize } from "../../lib/format";
import type { SearchItem } from "../../lib/search-api";
import { Thumb } from "../mam/Thumb";
import { Snippet } from "./Snippet";

const t = ru.search;

/** Where a result opens: an asset's info screen, a group's contents. */
export const resultHref = (item: Pick<SearchItem, "el_id" | "el_type">) =>
  item.el_type === "asset" ? `/asset/${item.el_id}` : `/mam/${item.el_id}`;

function Facts({ item }: { item: SearchItem }) {
  const facts = [
    item.el_type === "group" ? t.group : item.mime,
    item.size !== undefined ? formatSize(item.size) : null,
    formatDateTime(item.ctime * 1000),
  ];
  return (
    <Text size="xs" c="dimmed">
      {facts.filter(Boolean).join(" · ")}
    </Text>
  );
}

function Name({ item }: { item: SearchItem }) {
  return (
    <Anchor component={Link} to={resultHref(item)} fw={500} lineClamp={1}>
      {item.name}
    </Anchor>
  );
}

/** The results as rows or tiles; "Похожие" on an asset asks for those nearest in meaning. */
export function Results({ items, view, onSimilar }: { items: SearchItem[]; view: "list" | "grid"; onSimilar: (item: SearchItem) => void }) {
  const similar = (item: SearchItem) =>
    item.el_type === "asset" && (
      <Button size="compact-xs" variant="subtle" onClick={() => onSimilar(item)}>
        {t.similar}
      </Button>
    );
  if (view === "grid") {
    return (
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" role="list" aria-label={ru.pages.search}>
        {items.map((item) => (
          <Card key={item.el_id} padding="xs" withBorder role="listitem" data-result={item.el_id}>
            <Stack gap={4} align="center">
              <Thumb type={item.el_type} mime={item.mime ?? null} preview={item.preview} size={120} />
              <Name item={item} />
              <Snippet html={item.snippet} />
              {similar(item)}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Stack gap={0} role="list" aria-label={ru.pages.search}>
      {items.map((item) => (
        <Group
          key={item.el_id}
          gap="sm"
          wrap="nowrap"
          py={6}
          role="listitem"
          data-result={item.el_id}
          style={{ borderBottom: "1px solid var(--mantine-color-dark-4)" }}
        >
          <Thumb type={item.el_type} mime={item.mime ?? null} preview={item.preview} size={48} />
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Name item={item} />
            <Snippet html={item.snippet} />
            <Facts item={item} />
          </Stack>
          {similar(item)}
        </Group>
      ))}
    </Stack>
  );
}
