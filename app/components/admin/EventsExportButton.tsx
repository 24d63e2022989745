import { Button, Tooltip } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { eventsExportPath } from "../../lib/events-api";
import { downloadFile } from "../mam/download";

const t = ru.admin.events;

interface Props {
  /** The screen's period, Unix seconds; open ends export from the start or up to now. */
  from?: number;
  to?: number;
  kind: string;
}

/** The journal's "CSV": the events of the period and kind filter (GET /api/global-events/export, admins). */
export function EventsExportButton({ from, to, kind }: Props) {
  const download = () => {
    const params = new URLSearchParams({ format: "csv", from: String(from ?? 0), to: String(to ?? Math.floor(Date.now() / 1000)) });
    if (kind.trim()) params.set("kinds", kind.trim());
    return runAction(() => downloadFile(`${eventsExportPath}?${params}`, `events-${params.get("from")}-${params.get("to")}.csv`));
  };
  return (
    <Tooltip label={t.csvHint}>
      <Button variant="default" size="xs" onClick={download}>
        {t.csv}
      </Button>
    </Tooltip>
  );
}
