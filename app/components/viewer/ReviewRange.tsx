import { Badge, Button, Group } from "@mantine/core";
import { type RefObject, useEffect, useState } from "react";
import type { Moment } from "../../../shared/review/schemas";
import { ru } from "../../i18n/ru";
import { type CommentsOut, momentAt, timecodeAt } from "./review-api";
import { typing } from "./transport";

const t = ru.review.range;
type Rate = CommentsOut["rate"];

/** A marked start and end (seconds of the shown frame); either may be unset. */
export interface Marks {
  in: number | null;
  out: number | null;
}

/**
 * A comment's `at` and `until` from the marks and the frame shown now: the start is the marked one, else the shown
 * frame; the end is the marked one. Marked the wrong way round they are swapped; an end on the start's own frame
 * is no range.
 */
export function rangeOf(marks: Marks, now: number, rate: Rate): { at: Moment; until?: Moment } {
  const a = marks.in ?? now;
  if (marks.out === null) return { at: momentAt(a, rate) };
  const [from, to] = a <= marks.out ? [a, marks.out] : [marks.out, a];
  const at = momentAt(from, rate);
  const until = momentAt(to, rate);
  const same = at.frame !== undefined ? at.frame === until.frame : at.seconds === until.seconds;
  return same ? { at } : { at, until };
}

/**
 * The marks and keys I and O at the shown frame (physical keys, ignored while typing). The timeline's I and O mark
 * the same points for a new time-coded value: one in/out pair, as in an editor.
 */
export function useMarks(media: RefObject<HTMLMediaElement | null> | null, shownTime: () => number) {
  const [marks, setMarks] = useState<Marks>({ in: null, out: null });
  useEffect(() => {
    if (!media) return;
    const onKey = (event: KeyboardEvent) => {
      if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey || !media.current) return;
      if (event.code === "KeyI") setMarks((m) => ({ ...m, in: shownTime() }));
      else if (event.code === "KeyO") setMarks((m) => ({ ...m, out: shownTime() }));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [media, shownTime]);
  return {
    marks,
    markIn: () => setMarks((m) => ({ ...m, in: shownTime() })),
    markOut: () => setMarks((m) => ({ ...m, out: shownTime() })),
    clear: () => setMarks({ in: null, out: null }),
  };
}

/** «Отметить начало», «Отметить конец» and the marked range, for the next comment. */
export function RangeControls({ range, rate }: { range: ReturnType<typeof useMarks>; rate: Rate }) {
  const { marks } = range;
  const tc = (s: number | null) => (s === null ? "…" : (timecodeAt(s, rate) ?? `${s.toFixed(2)} с`));
  return (
    <Group gap={4} wrap="wrap">
      <Button size="compact-xs" variant="default" onClick={range.markIn}>
        {t.markIn}
      </Button>
      <Button size="compact-xs" variant="default" onClick={range.markOut}>
        {t.markOut}
      </Button>
      {(marks.in !== null || marks.out !== null) && (
        <>
          <Badge size="sm" variant="light" ff="monospace" data-testid="review-range">
            {t.shown(tc(marks.in), tc(marks.out))}
          </Badge>
          <Button size="compact-xs" variant="subtle" onClick={range.clear}>
            {t.clear}
          </Button>
        </>
      )}
    </Group>
  );
}
