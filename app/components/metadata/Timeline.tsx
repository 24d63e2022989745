import { Box, Button, Group, Select, Stack, Text, Title, UnstyledButton } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { type RefObject, useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { createValue, type FieldTemplate, type FieldValue } from "../../lib/metadata-api";
import { showError, showInfo } from "../../lib/notify";
import { FieldInput, type FieldLookup } from "./FieldInput";
import { secondsToText } from "./time-text";
import { TimelineBar } from "./TimelineBar";
import { useInOutKeys } from "./use-in-out-keys";
import { useMediaDuration } from "./use-media-duration";

const t = ru.metadata.timeline;

const short = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export interface TimelineProps {
  assetId: string;
  version: number | null;
  templates: FieldTemplate[];
  values: FieldValue[];
  lookup: FieldLookup;
  canEdit: boolean;
  media: RefObject<HTMLMediaElement | null>;
}

/**
 * The time-coded values of a video or audio under its player: each as a segment of the bar and a row below; a
 * click seeks the player to its start. With update on the asset, "I" and "O" set in and out at the playhead and
 * Enter saves a value of the chosen template over [in, out] (keys act unless a form control has the focus).
 */
export function Timeline({ assetId, version, templates, values, lookup, canEdit, media }: TimelineProps) {
  const { revalidate } = useRevalidator();
  const duration = useMediaDuration(media);
  const [range, setRange] = useState<{ in: number | null; out: number | null }>({ in: null, out: null });
  const [defId, setDefId] = useState<string | null>(templates[0]?.field_def_id ?? null);
  const [draft, setDraft] = useState<unknown>(null);
  const template = templates.find((x) => x.field_def_id === defId) ?? null;
  const nameOf = (id: string) => templates.find((x) => x.field_def_id === id)?.field_def_name ?? id;

  const seek = (at: number) => {
    const el = media.current;
    if (el) el.currentTime = at;
  };
  const save = async () => {
    if (!template) return;
    if (range.in === null || range.out === null || range.out < range.in) return showError(new Error(t.needRange));
    const pts: [number, number] = [range.in, range.out];
    const body = {
      entity_id: assetId,
      entity_type: "asset" as const,
      def_id: template.field_def_id,
      field_data: draft,
      pts,
      asset_version: version,
    };
    if ((await runAction(() => createValue(body))) === undefined) return;
    showInfo(t.saved);
    setRange({ in: null, out: null });
    setDraft(null);
    revalidate();
  };

  useInOutKeys(media, canEdit, {
    in: (at) => setRange((r) => ({ ...r, in: at })),
    out: (at) => setRange((r) => ({ ...r, out: at })),
    enter: () => void save(),
  });

  const sorted = [...values].sort((a, b) => (a.pts?.[0] ?? 0) - (b.pts?.[0] ?? 0));
  return (
    <Stack gap={6} component="section" aria-label={t.title}>
      <Title order={5}>{t.title}</Title>
      <TimelineBar values={sorted} duration={duration} range={range} nameOf={nameOf} onSeek={seek} />
      {sorted.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t.none}
        </Text>
      ) : (
        <Stack gap={0}>
          {sorted.map((v) => (
            <UnstyledButton key={v.field_id} onClick={() => seek(v.pts?.[0] ?? 0)} data-testid="timeline-value">
              <Text size="sm">
                {secondsToText(v.pts?.[0])}–{secondsToText(v.pts?.[1])} · {nameOf(v.def_id)}: {short(v.field_data)}
              </Text>
            </UnstyledButton>
          ))}
        </Stack>
      )}
      {canEdit && templates.length > 0 && (
        <Group align="end" gap="sm">
          <Select
            label={t.template}
            data={templates.map((x) => ({ value: x.field_def_id, label: x.field_def_name }))}
            value={defId}
            allowDeselect={false}
            onChange={(id) => {
              setDefId(id);
              setDraft(null);
            }}
            w={220}
            comboboxProps={{ withinPortal: true }}
          />
          {template && (
            <Box w={260}>
              <FieldInput template={template} value={draft} onChange={setDraft} lookup={lookup} />
            </Box>
          )}
          <Text size="sm" data-testid="timeline-in">
            {t.in}: {secondsToText(range.in) || "—"}
          </Text>
          <Text size="sm" data-testid="timeline-out">
            {t.out}: {secondsToText(range.out) || "—"}
          </Text>
          <Button size="xs" onClick={save}>
            {t.save}
          </Button>
        </Group>
      )}
      {canEdit && (
        <Text size="xs" c="dimmed">
          {t.hint}
        </Text>
      )}
    </Stack>
  );
}
