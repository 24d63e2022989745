import { Box, UnstyledButton } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { FieldValue } from "../../lib/metadata-api";
import { secondsToText } from "./time-text";

const t = ru.metadata.timeline;

type Props = {
  /** Sorted by start. */
  values: FieldValue[];
  duration: number;
  range: { in: number | null; out: number | null };
  nameOf: (defId: string) => string;
  onSeek: (at: number) => void;
};

/** The bar under the player: a segment per time-coded value (a click seeks to its start), and the in/out marks. */
export function TimelineBar({ values, duration, range, nameOf, onSeek }: Props) {
  const pct = (s: number) => `${duration > 0 ? Math.min(100, (s / duration) * 100) : 0}%`;
  return (
    <Box pos="relative" h={18} bg="dark.6" style={{ borderRadius: 4 }} data-testid="timeline-bar">
      {values.map((v) => {
        const [from, to] = v.pts ?? [0, 0];
        return (
          <UnstyledButton
            key={v.field_id}
            aria-label={t.seek(nameOf(v.def_id), secondsToText(from), secondsToText(to))}
            onClick={() => onSeek(from)}
            pos="absolute"
            top={2}
            h={14}
            style={{
              left: pct(from),
              width: `max(4px, calc(${pct(to)} - ${pct(from)}))`,
              background: "var(--mantine-color-blue-6)",
              borderRadius: 3,
            }}
          />
        );
      })}
      {range.in !== null && <Box pos="absolute" top={0} h={18} w={2} bg="green.5" style={{ left: pct(range.in) }} />}
      {range.out !== null && <Box pos="absolute" top={0} h={18} w={2} bg="red.5" style={{ left: pct(range.out) }} />}
    </Box>
  );
}
