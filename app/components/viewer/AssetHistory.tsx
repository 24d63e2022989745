import { Button, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { type EventsPage, listEvents } from "../../lib/events-api";
import { formatDateTime } from "../../lib/format";
import { showError } from "../../lib/notify";

const t = ru.viewer.history;

/** The first page of an asset's history (events on it, its share links and its tasks), newest first. */
export const assetHistory = (assetId: string, signal?: AbortSignal) => listEvents({ asset: assetId, take: 20 }, signal);

/** What an event says, briefly: a task's status change names its new status, a field its template. */
function details(data: Record<string, unknown> | null): string {
  if (!data) return "";
  if (typeof data.to === "string") return data.to;
  if (typeof data.name === "string") return data.name;
  return "";
}

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
      {items.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <Table striped>
          <Table.Tbody>
            {items.map((e) => (
              <Table.Tr key={e.event_id}>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(e.time * 1000)}</Table.Td>
                <Table.Td>{t.kinds[e.kind] ?? e.kind}</Table.Td>
                <Table.Td>{e.user_name ?? t.system}</Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {details(e.data)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {cursor && (
        <Button size="xs" variant="subtle" onClick={more} style={{ alignSelf: "start" }}>
          {t.more}
        </Button>
      )}
    </Stack>
  );
}
