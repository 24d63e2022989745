import { Anchor, Stack, Title } from "@mantine/core";
import { Link, useLoaderData } from "@remix-run/react";
import { countFailedTasks, FailedTasksLink } from "../components/jobs/FailedTasksLink";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.admin);

export const clientLoader = screenLoader(async ({ request }) => ({ failed: await countFailedTasks(request.signal) }));

/** /admin's sections, in the order the page lists them. */
const sections = [
  ["/admin/access", ru.pages.access],
  ["/admin/metadata", ru.pages.metadata],
  ["/admin/storages", ru.pages.storages],
  ["/admin/task-templates", ru.adminExtra.templates.title],
  ["/admin/events", ru.pages.events],
  ["/admin/shop", ru.pages.shopAdmin],
] as const;

/** /admin: the way into its sections. */
export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function AdminPage() {
  const { failed } = useLoaderData<typeof clientLoader>();
  return (
    <Stack gap="sm">
      <Title order={2}>{ru.pages.admin}</Title>
      <FailedTasksLink count={failed} />
      {sections.map(([to, label]) => (
        <Anchor key={to} component={Link} to={to}>
          {label}
        </Anchor>
      ))}
    </Stack>
  );
}
