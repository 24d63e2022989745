import { Button, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";

import { type EventsPage, listEvents } from "../../lib/events-api";

import { showError } from "../../lib/notify";
import { EventsTable } from "../events/EventsTable";

const t = ru.viewer.history;

/** The first page of an asset's history (events on it, its share links and its tasks), newest first. */
export const assetHistory = (assetId: string, signal?: AbortSignal) => listEvents({ asset: assetId, take: 20 }, signal);

/** "История" on the asset info screen; older events load on demand. */
export function AssetHistory({ assetId, first }: { assetId: string; first: EventsPage }) {
  const [items, setItems] = useState(first.items);
  const [cursor, setCursor] = useState(first.next_cursor);
  const more = async () => {
    try {
      const page = await listEvents({ asset: assetId, take: 50, cursor: cursor ?? undefined });
      setItems((shown) => [...shown, ...page.items]);
      setCursor(page.next_cursor);
    } catch (error) {
      showError(error);
    }
  };
  return (
    <Stack gap="xs" role="region" aria-label={t.title}>
      <Title order={4}>{t.title}</Title>
      {items.length === 0 ? <Text c="dimmed">{t.empty}</Text> : <EventsTable events={items} subject={assetId} minWidth={560} />}
      {cursor && (
        <Button size="xs" variant="subtle" onClick={more} style={{ alignSelf: "start" }}>
          {t.more}
        </Button>
      )}
    </Stack>
  );
}
