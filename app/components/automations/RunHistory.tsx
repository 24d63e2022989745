import { Accordion, Badge, Button, Code, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { isLive, retryRun, type Run, type RunsPage } from "../../lib/automations-api";
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

/** One run's steps with their logs: the screen loads them for the opened run, and reloads them while it goes on. */
function RunSteps({ run }: { run: Run | null }) {
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

type RunItem = RunsPage["items"][number];

/** While the queue tries a failed run again: «повтор N из M», and the last error to those who may read it. */
function Retrying({ run }: { run: RunItem }) {
  if (!isLive(run.status) || run.retries === 0) return null;
  return (
    <Text size="xs" c="orange" data-testid="run-retrying">
      {t.retrying(Math.min(run.retries, run.retries_max), run.retries_max)}
      {run.error ? ` — ${run.error}` : ""}
    </Text>
  );
}

/** «Повторить» on a failed run, for those who may start the workflow. */
function RetryButton({ runId, onRetried }: { runId: string; onRetried: () => void }) {
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    setBusy(true);
    try {
      await retryRun(runId);
      notifications.show({ message: t.retried });
      onRetried();
    } catch (err) {
      notifications.show({ color: "red", message: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="xs" variant="light" loading={busy} onClick={retry}>
      {t.retry}
    </Button>
  );
}

/**
 * The run history, newest first; the screen reloads it every 2 s while a run is going (the caller's polling). One run
 * is open at a time: `open` is its id and, once loaded, its steps.
 */
export function RunHistory(props: {
  runs: RunsPage;
  open: { id: string | null; run: Run | null };
  onOpen: (runId: string | null) => void;
  canRetry: boolean;
  onRetried: () => void;
}) {
  const { runs, open, canRetry, onRetried } = props;
  if (!runs.items.length) return <Text c="dimmed">{t.historyEmpty}</Text>;
  return (
    <Accordion variant="separated" value={open.id} onChange={props.onOpen}>
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
              <Retrying run={r} />
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              {canRetry && r.status === "failed" && <RetryButton runId={r.run_id} onRetried={onRetried} />}
              {open.id === r.run_id && <RunSteps run={open.run} />}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
