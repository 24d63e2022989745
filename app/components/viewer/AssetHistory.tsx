import { Button, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { describeEvent } from "../../lib/event-text";
import { type EventsPage, listEvents } from "../../lib/events-api";
import { EventDetails, RefText, useEventReader } from "../events/EventWords";
import { formatDateTime } from "../../lib/format";
import { showError } from "../../lib/notify";

const t = ru.viewer.history;

/** The first page of an asset's history (events on it, its share links and its tasks), newest first. */
export const assetHistory = (assetId: string, signal?: AbortSignal) => listEvents({ asset: assetId, take: 20 }, signal);

/** "История" on the asset info screen; older events load on demand. */
export function AssetHistory({ assetId, first }: { assetId: string; first: EventsPage }) {
  const [items, setItems] = useState(first.items);
  const [cursor, setCursor] = useState(first.next_cursor);
  const reader = useEventReader();
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
      {items.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Tbody>
              {items.map((e) => {
                const words = describeEvent(e, reader);
                // The asset itself is the page's subject: only another object (a task, a link) is named.
                const object = e.entity_id !== assetId ? words.object : null;
                return (
                  <Table.Tr key={e.event_id}>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(e.time * 1000)}</Table.Td>
                    <Table.Td title={e.kind}>
                      {words.action}
                      {object && (
                        <>
                          {" "}
                          <RefText value={object} />
                        </>
                      )}
                    </Table.Td>
                    <Table.Td>{words.actor ? <RefText value={words.actor} /> : ru.events.system}</Table.Td>
                    <Table.Td>
                      <EventDetails parts={words.details} event={e} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {cursor && (
        <Button size="xs" variant="subtle" onClick={more} style={{ alignSelf: "start" }}>
          {t.more}
        </Button>
      )}
    </Stack>
  );
}
