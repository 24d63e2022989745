import { Button, Checkbox, Group, Text } from "@mantine/core";
import { useState } from "react";
import type { exportFormats } from "../../../shared/review/schemas";
import { ru } from "../../i18n/ru";
import * as review from "../../../shared/review/contract";
import { runAction } from "../../lib/actions";
import { routePath } from "../../lib/api";
import { downloadFile } from "../mam/download";

const t = ru.review.exporting;
type Format = (typeof exportFormats)[number];

/** Drop-frame timecode exists only for 29.97 and 59.94 (30000/1001, 60000/1001); the API refuses it for others. */
export const dropFrameRate = (rate: { fps_num: number; fps_den: number } | null) =>
  !!rate && rate.fps_den === 1001 && (rate.fps_num === 30000 || rate.fps_num === 60000);

/** The file name the API gives its export (functions/review/export.ts), so a saved file is named the same. */
const fileName = (name: string, version: number, format: Format) => `${name.replace(/\.[^.]*$/, "") || "review"} v${version}.${format}`;

/**
 * The version's comments as CSV, a CMX3600 EDL of markers, or WebVTT, saved through the app's one download path
 * (apiFetch with the bearer, then a blob link: mam/download.ts). The drop-frame choice shows only at 29.97/59.94.
 */
export function ReviewExport({
  assetId,
  version,
  name,
  rate,
}: {
  assetId: string;
  version: number;
  name: string;
  rate: { fps_num: number; fps_den: number } | null;
}) {
  const [drop, setDrop] = useState(false);
  const dropFrame = dropFrameRate(rate);
  const save = (format: Format) => {
    const q = new URLSearchParams({ version: String(version), format });
    if (format === "edl" && dropFrame && drop) q.set("drop_frame", "true");
    return runAction(() =>
      downloadFile(`${routePath(review.exportComments, { asset_id: assetId })}?${q}`, fileName(name, version, format)),
    );
  };
  return (
    <Group gap={4} wrap="wrap" role="group" aria-label={t.title}>
      <Text size="xs" c="dimmed">
        {t.title}:
      </Text>
      <Button size="compact-xs" variant="default" onClick={() => save("csv")}>
        CSV
      </Button>
      <Button size="compact-xs" variant="default" onClick={() => save("edl")}>
        EDL
      </Button>
      <Button size="compact-xs" variant="default" onClick={() => save("vtt")}>
        WebVTT
      </Button>
      {dropFrame && <Checkbox size="xs" label={t.dropFrame} checked={drop} onChange={(e) => setDrop(e.currentTarget.checked)} />}
    </Group>
  );
}
