import { Table } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { describeEvent } from "../../lib/event-text";
import type { EventsPage } from "../../lib/events-api";
import { formatDateTime } from "../../lib/format";
import { DataTable } from "../ui/DataTable";
import { EventDetails, RefText, useEventReader } from "./EventWords";

type Props = {
  events: EventsPage["items"];
  /**
   * The one object the whole table is about (an asset's history). Its rows name only another object (a task,
   * a link), after the action; without a subject (the admin log) every row's object has its own column.
   */
  subject?: string;
  head?: string[];
  "aria-label"?: string;
  minWidth: number;
};

/** Events as readable rows: when, what was done, by whom, to what, and the details (app/lib/event-text.ts). */
export function EventsTable({ events, subject, head, minWidth, "aria-label": label }: Props) {
  const reader = useEventReader();
  return (
    <DataTable minWidth={minWidth} striped aria-label={label} head={head} rows={events}>
      {(e) => {
        const words = describeEvent(e, reader);
        const objectAfterAction = subject !== undefined && e.entity_id !== subject ? words.object : null;
        return (
          <Table.Tr key={e.event_id}>
            <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(e.time)}</Table.Td>
            <Table.Td title={e.kind}>
              {words.action}
              {objectAfterAction && (
                <>
                  {" "}
                  <RefText value={objectAfterAction} />
                </>
              )}
            </Table.Td>
            <Table.Td>{words.actor ? <RefText value={words.actor} /> : ru.events.system}</Table.Td>
            {subject === undefined && <Table.Td>{words.object ? <RefText value={words.object} /> : "—"}</Table.Td>}
            <Table.Td>
              <EventDetails parts={words.details} event={e} />
            </Table.Td>
          </Table.Tr>
        );
      }}
    </DataTable>
  );
}
