import { Accordion, Badge, Code, Group, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { getRun, isLive, type Run, type RunsPage } from "../../lib/automations-api";
import { formatDateTime } from "../../lib/format";

const t = ru.automations;
const statusColor: Record<string, string> = {
  done: "green",
  failed: "red",
  stopped: "gray",
  running: "blue",
  queued: "blue",
  waiting: "yellow",
};

export const StatusBadge = ({ status }: { status: string }) => (
  <Badge color={statusColor[status] ?? "gray"} variant="light">
    {t.runStatus[status] ?? status}
  </Badge>
);

/** One run's steps with their logs, loaded when opened and reloaded while the run goes on. */
function RunSteps({ runId, status }: { runId: string; status: string }) {
  const [run, setRun] = useState<Run | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the steps are read again whenever the run's status changes
  useEffect(() => {
    const ctl = new AbortController();
    getRun(runId, ctl.signal)
      .then(setRun)
      .catch(() => {});
    return () => ctl.abort();
  }, [runId, status]);
  if (!run) return <Text size="sm">{ru.app.loading}</Text>;
  return (
    <Stack gap="xs">
      {run.error && (
        <Text c="red" size="sm">
          {run.error}
        </Text>
      )}
      {run.error === undefined && run.error_class && (
        <Text c="red" size="sm">
          {t.errorClass[run.error_class] ?? run.error_class}
        </Text>
      )}
      {run.steps.map((s) => (
        <Stack key={s.step} gap={2} data-testid="run-step">
          <Group gap="xs">
            <Text size="sm" fw={500}>
              {t.step(s.step + 1)}: {t.actions[s.action] ?? s.action}
            </Text>
            <StatusBadge status={s.status} />
            <Text size="xs" c="dimmed">
              {t.attempts(s.attempts)}
            </Text>
          </Group>
          {s.log && s.log.length > 0 && <Code block>{s.log.join("\n")}</Code>}
        </Stack>
      ))}
    </Stack>
  );
}

/** The run history, newest first; the screen reloads it every 2 s while a run is going (the caller's polling). */
export function RunHistory({ runs }: { runs: RunsPage }) {
  if (!runs.items.length) return <Text c="dimmed">{t.historyEmpty}</Text>;
  return (
    <Accordion variant="separated">
      {runs.items.map((r) => (
        <Accordion.Item key={r.run_id} value={r.run_id} data-testid="run">
          <Accordion.Control>
            <Group gap="sm">
              <StatusBadge status={r.status} />
              <Text size="sm">{formatDateTime(r.ctime)}</Text>
              {isLive(r.status) && (
                <Text size="xs" c="dimmed">
                  {t.live}
                </Text>
              )}
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <RunSteps runId={r.run_id} status={r.status} />
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
