import { Checkbox, Code, Group, ScrollArea, Text, Title } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { formatDateTime } from "../../lib/format";
import { taskLog, type LogLine } from "./jobs-api";
import { usePolling } from "./usePolling";

/** The task's log, fetched after the last seq every second while the task is live, and scrolled to the end. */
export function JobLog({ jobId, live }: { jobId: string; live: boolean }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [follow, setFollow] = useState(true);
  const last = useRef(0);
  const viewport = useRef<HTMLDivElement>(null);
  usePolling(
    async (signal) => {
      const more = await taskLog(jobId, last.current, signal);
      if (more.length) {
        last.current = more[more.length - 1].seq;
        setLines((l) => [...l, ...more].slice(-5000));
      }
    },
    live ? 1000 : 5000,
    [jobId, live],
  );
  useEffect(() => {
    if (follow) viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
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
