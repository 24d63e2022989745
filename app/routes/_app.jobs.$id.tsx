import { Anchor, Code, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link, useParams } from "@remix-run/react";
import { useState } from "react";
import { JobLog } from "../components/jobs/JobLog";
import { TaskActions, TaskPriority } from "../components/jobs/TaskActions";
import { TaskProgress, TaskStatusBadge } from "../components/jobs/TaskStatusBadge";
import { getTask, isLive, taskResult, type Task } from "../components/jobs/jobs-api";
import { usePolling } from "../components/jobs/usePolling";
import { ru } from "../i18n/ru";
import { formatDateTime } from "../lib/format";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.job);

/** /jobs/{id}: one task, its result, and its log following live while it runs. */
export default function JobLogPage() {
  const { id = "" } = useParams();
  const [task, setTask] = useState<Task | null>(null);
  const [missing, setMissing] = useState(false);
  const [result, setResult] = useState<Record<string, unknown> | null>(null);
  usePolling(
    async (signal) => {
      try {
        const t = await getTask(id, signal);
        setTask(t);
        if (t.status === "done" && !result) setResult((await taskResult(id)).result);
      } catch (err) {
        // Gone or not readable: the page says so instead of a toast.
        if ((err as { status?: number }).status === 404) return setMissing(true);
        throw err;
      }
    },
    1500,
    [id],
  );
  if (missing) return <Text c="dimmed">{ru.jobs.notFound}</Text>;
  if (!task) return <Text c="dimmed">{ru.jobs.loading}</Text>;
  const row = (label: string, value: React.ReactNode) => (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" w={120}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </Group>
  );
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/jobs" size="sm">
        ← {ru.jobs.back}
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>
          {ru.pages.job} №{task.job_num}: {task.template}
        </Title>
        <TaskStatusBadge status={task.status} />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap={6}>
          {row(ru.jobs.columns.progress, <TaskProgress task={task} />)}
          {row(
            ru.jobs.columns.entity,
            <Anchor component={Link} to={`/asset/${task.asset_id}`}>
              {task.asset_name ?? task.asset_id} (v{task.version})
            </Anchor>,
          )}
          {row(ru.jobs.columns.owner, task.owner_name ?? "—")}
          {row(ru.jobs.worker, task.worker_info ?? "—")}
          {row(ru.jobs.scheduled, formatDateTime(task.schedule_time))}
          {row(ru.jobs.started, formatDateTime(task.start_time) || "—")}
          {row(ru.jobs.stopped, formatDateTime(task.stop_time) || "—")}
          {row(ru.jobs.columns.priority, <TaskPriority task={task} onChanged={setTask} />)}
          {row(ru.jobs.columns.actions, <TaskActions task={task} onChanged={setTask} />)}
          {task.error &&
            row(
              ru.jobs.error,
              <Text c="red" size="sm">
                {task.error}
              </Text>,
            )}
        </Stack>
        {result && (
          <Stack gap={4}>
            <Title order={4}>{ru.jobs.result}</Title>
            <Code block>{JSON.stringify(result, null, 2)}</Code>
          </Stack>
        )}
      </SimpleGrid>
      <JobLog jobId={id} live={isLive(task.status)} />
    </Stack>
  );
}
