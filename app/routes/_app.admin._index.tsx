import { Anchor, Stack, Title } from "@mantine/core";
import { Link, useLoaderData } from "@remix-run/react";
import { countFailedTasks, FailedTasksLink } from "../components/jobs/FailedTasksLink";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.admin);

export const clientLoader = screenLoader(async ({ request }) => ({ failed: await countFailedTasks(request.signal) }));

/** /admin: the way into its sections. */
export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function AdminPage() {
  const { failed } = useLoaderData<typeof clientLoader>();
  return (
    <Stack gap="sm">
      <Title order={2}>{ru.pages.admin}</Title>
      <FailedTasksLink count={failed} />
      <Anchor component={Link} to="/admin/access">
        {ru.pages.access}
      </Anchor>
      <Anchor component={Link} to="/admin/metadata">
        {ru.pages.metadata}
      </Anchor>
      <Anchor component={Link} to="/admin/storages">
        {ru.pages.storages}
      </Anchor>
      <Anchor component={Link} to="/admin/task-templates">
        {ru.adminExtra.templates.title}
      </Anchor>
      <Anchor component={Link} to="/admin/events">
        {ru.pages.events}
      </Anchor>
      <Anchor component={Link} to="/admin/shop">
        {ru.pages.shopAdmin}
      </Anchor>
    </Stack>
  );
}
