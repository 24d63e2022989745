import { Group, Pagination, Stack, Text, Title } from "@mantine/core";
import { useMemo, useState } from "react";
import { JobsFilters } from "../components/jobs/JobsFilters";
import { JobsTable } from "../components/jobs/JobsTable";
import { countTasks, listTasks, type Task, type TaskFilters } from "../components/jobs/jobs-api";
import { usePolling } from "../components/jobs/usePolling";
import { ru } from "../i18n/ru";
import { formatCount } from "../lib/format";
import { sessionStore } from "../lib/session";
import { useStore } from "../lib/store";
import { pageMeta } from "../lib/meta";
import { PAGE_SIZE } from "../../functions/lib/constants";

export const meta = pageMeta(ru.pages.jobs);

/** /jobs: the task list, filtered, paged, refreshed every 2 s without a reload. */
export default function JobsPage() {
  const [filters, setFilters] = useState<TaskFilters>({ status: [], template: null, owner: null, entity: "" });
  const [page, setPage] = useState(1);
  const [tasks, setTasks] = useState<Task[] | null>(null);
  const [total, setTotal] = useState(0);
  // Owners seen in the list so far (there is no user directory for non-admins); the signed-in user first.
  const [seen, setSeen] = useState<Record<string, string>>({});
  const me = useStore(sessionStore).user;
  const owners = useMemo(() => {
    const rest = Object.entries(seen)
      .filter(([id]) => id !== me?.id)
      .map(([value, label]) => ({ value, label }));
    return me ? [{ value: me.id, label: `${me.name} ${ru.jobs.filters.me}` }, ...rest] : rest;
  }, [seen, me]);
  usePolling(
    async (signal) => {
      const [rows, count] = await Promise.all([listTasks(filters, (page - 1) * PAGE_SIZE, PAGE_SIZE, signal), countTasks(filters, signal)]);
      setTasks(rows);
      setTotal(count.count);
      const fresh = rows.filter((t) => t.owner && !(t.owner in seen));
      if (fresh.length) setSeen((s) => ({ ...s, ...Object.fromEntries(fresh.map((t) => [t.owner!, t.owner_name ?? t.owner!])) }));
    },
    2000,
    [filters, page],
  );
  const replace = (t: Task) => setTasks((list) => list?.map((x) => (x.job_id === t.job_id ? t : x)) ?? null);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <Title order={2}>{ru.pages.jobs}</Title>
        <Text size="sm" c="dimmed">
          {formatCount(total, ru.jobs.total)} · {ru.jobs.live}
        </Text>
      </Group>
      <JobsFilters
        value={filters}
        owners={owners}
        onChange={(f) => {
          setFilters(f);
          setPage(1);
        }}
      />
      {tasks === null ? (
        <Text c="dimmed">{ru.jobs.loading}</Text>
      ) : tasks.length === 0 ? (
        <Text c="dimmed">{ru.jobs.empty}</Text>
      ) : (
        <JobsTable tasks={tasks} onChanged={replace} />
      )}
      {total > PAGE_SIZE && <Pagination value={page} onChange={setPage} total={Math.ceil(total / PAGE_SIZE)} />}
    </Stack>
  );
}
