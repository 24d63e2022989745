import { Anchor, Code, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { JobLog } from "../components/jobs/JobLog";
import { TaskActions, TaskPriority } from "../components/jobs/TaskActions";
import { TaskProgress, TaskStatusBadge } from "../components/jobs/TaskStatusBadge";
import { getTask, isLive, taskResult } from "../components/jobs/jobs-api";
import { logSoFar } from "../components/jobs/task-log";
import { ru } from "../i18n/ru";
import { formatDateTime } from "../lib/format";
import { pageMeta } from "../lib/meta";
import { screenLoader, useRevalidateEvery } from "../lib/route-data";
import { BackLink } from "../components/ui/BackLink";

export const meta = pageMeta(ru.pages.job);

/**
 * The task, then its log so far and (once done) its result. The log is read after the task, so a task seen
 * as finished shows its last lines too.
 */
export const clientLoader = screenLoader(async ({ params, request }) => {
  const id = params.id ?? "";
  const task = await getTask(id, request.signal);
  const [log, result] = await Promise.all([logSoFar(id, request.signal), task.status === "done" ? taskResult(id) : null]);
  return { task, log, result: result?.result ?? null };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /jobs/{id}: one task, its result, and its log, following live while it runs (a finished task is checked now and then). */
export default function JobLogPage() {
  const { task, log, result } = useLoaderData<typeof clientLoader>();
  const { revalidate } = useRevalidator();
  useRevalidateEvery(isLive(task.status) ? 1000 : 5000);
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
      <BackLink to="/jobs" label={ru.jobs.back} />
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
          {row(ru.jobs.columns.priority, <TaskPriority task={task} onChanged={revalidate} />)}
          {row(ru.jobs.columns.actions, <TaskActions task={task} onChanged={revalidate} />)}
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
      <JobLog lines={log} />
    </Stack>
  );
}
