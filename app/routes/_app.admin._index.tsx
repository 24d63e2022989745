import { Anchor, Stack, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.admin);

/** /admin: the way into its sections. */
export { RouteError as ErrorBoundary } from "../components/RouteError";

export default function AdminPage() {
  return (
    <Stack gap="sm">
      <Title order={2}>{ru.pages.admin}</Title>
      <Anchor component={Link} to="/admin/access">
        {ru.pages.access}
      </Anchor>
      <Anchor component={Link} to="/admin/metadata">
        {ru.pages.metadata}
      </Anchor>
      <Anchor component={Link} to="/admin/storages">
        {ru.pages.storages}
      </Anchor>
      <Anchor component={Link} to="/admin/events">
        {ru.pages.events}
      </Anchor>
    </Stack>
  );
}
