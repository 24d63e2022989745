import { Checkbox, Code, Group, ScrollArea, Text, Title } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { formatDateTime } from "../../lib/format";
import type { LogLine } from "./jobs-api";

/** The task's log (its screen's loader keeps it current), scrolled to the end while "follow" is on. */
export function JobLog({ lines }: { lines: LogLine[] }) {
  const [follow, setFollow] = useState(true);
  const viewport = useRef<HTMLDivElement>(null);
  // New lines arrive with each load: keep the end in view.
  useEffect(() => {
    if (follow && lines.length) viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [lines, follow]);
  return (
    <>
      <Group justify="space-between">
        <Title order={4}>{ru.jobs.log}</Title>
        <Checkbox label={ru.jobs.follow} checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} />
      </Group>
      <ScrollArea h={420} viewportRef={viewport} type="auto">
        {lines.length === 0 ? (
          <Text c="dimmed">{ru.jobs.logEmpty}</Text>
        ) : (
          <Code block data-testid="task-log">
            {lines
              .map((l) => `${formatDateTime(l.ts)} [${l.run}] ${l.level === "info" ? "" : `${l.level.toUpperCase()} `}${l.line}`)
              .join("\n")}
          </Code>
        )}
      </ScrollArea>
    </>
  );
}
