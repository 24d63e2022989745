import { Group, Pagination, Stack, Text, Title } from "@mantine/core";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useMemo, useState } from "react";
import { PAGE_SIZE } from "../../shared/lib/constants";
import { countFailedTasks, FailedTasksLink } from "../components/jobs/FailedTasksLink";
import { JobsFilters } from "../components/jobs/JobsFilters";
import { JobsTable } from "../components/jobs/JobsTable";
import { countTasks, listTasks, taskNames, type TaskFilters } from "../components/jobs/jobs-api";
import { ru } from "../i18n/ru";
import { formatCount } from "../lib/format";
import { pageMeta } from "../lib/meta";
import { intParam, screenLoader, useRevalidateEvery } from "../lib/route-data";
import { sessionStore } from "../lib/session";
import { useStore } from "../lib/store";

export const meta = pageMeta(ru.pages.jobs);

/** The filters and the page live in the address, so a reload, a shared link and back/forward show the same list. */
function filtersOf(params: URLSearchParams): TaskFilters {
  return {
    status: params.get("status")?.split(",").filter(Boolean) ?? [],
    template: params.get("template"),
    owner: params.get("owner"),
    entity: params.get("entity") ?? "",
  };
}

function paramsOf(f: TaskFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.status.length) params.set("status", f.status.join(","));
  if (f.template) params.set("template", f.template);
  if (f.owner) params.set("owner", f.owner);
  if (f.entity) params.set("entity", f.entity);
  return params;
}

export const clientLoader = screenLoader(async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const filters = filtersOf(params);
  const page = Math.max(1, intParam(params, "page", 1));
  const [tasks, count, names, failed] = await Promise.all([
    listTasks(filters, (page - 1) * PAGE_SIZE, PAGE_SIZE, request.signal),
    countTasks(filters, request.signal),
    taskNames(),
    countFailedTasks(request.signal),
  ]);
  return { filters, page, tasks, total: count.count, names, failed };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /jobs: the task list, filtered, paged, refreshed every 2 s without a reload. */
export default function JobsPage() {
  const { filters, page, tasks, total, names, failed } = useLoaderData<typeof clientLoader>();
  const [, setSearchParams] = useSearchParams();
  const { revalidate } = useRevalidator();
  useRevalidateEvery(2000);

  // Owners seen in the list so far (there is no user directory for non-admins); the signed-in user first.
  const me = useStore(sessionStore).user;
  const [seen, setSeen] = useState<Record<string, string>>({});
  // Added while rendering, as React's "storing information from previous renders" does: an effect would paint the
  // list once without the new owners, then again with them.
  const fresh = tasks.filter((t) => t.owner && !(t.owner in seen));
  if (fresh.length) setSeen({ ...seen, ...Object.fromEntries(fresh.map((t) => [t.owner!, t.owner_name ?? t.owner!])) });
  const owners = useMemo(() => {
    const rest = Object.entries(seen)
      .filter(([id]) => id !== me?.id)
      .map(([value, label]) => ({ value, label }));
    return me ? [{ value: me.id, label: `${me.name} ${ru.jobs.filters.me}` }, ...rest] : rest;
  }, [seen, me]);

  const showPage = (next: number) => {
    const params = paramsOf(filters);
    if (next > 1) params.set("page", String(next));
    setSearchParams(params, { preventScrollReset: true });
  };
  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <Title order={2}>{ru.pages.jobs}</Title>
        <Group gap="md">
          <FailedTasksLink count={failed} />
          <Text size="sm" c="dimmed">
            {formatCount(total, ru.jobs.total)} · {ru.jobs.live}
          </Text>
        </Group>
      </Group>
      <JobsFilters
        value={filters}
        templates={names.map((r) => ({ value: r.template_id, label: `${r.name} (${r.count})` }))}
        owners={owners}
        onChange={(f) => setSearchParams(paramsOf(f), { replace: true, preventScrollReset: true })}
      />
      {tasks.length === 0 ? <Text c="dimmed">{ru.jobs.empty}</Text> : <JobsTable tasks={tasks} onChanged={revalidate} />}
      {total > PAGE_SIZE && <Pagination value={page} onChange={showPage} total={Math.ceil(total / PAGE_SIZE)} />}
    </Stack>
  );
}
