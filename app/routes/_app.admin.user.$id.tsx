import { Stack, Title } from "@mantine/core";
import { Outlet, useParams } from "@remix-run/react";
import { RouteTabs } from "../components/RouteTabs";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.user);

/** One user in the admin area, with the tabs /groups and /actives (spec 2). */
export default function AdminUserLayout() {
  const { id } = useParams();
  return (
    <Stack gap="md">
      <Title order={2}>{ru.pages.user}</Title>
      <RouteTabs
        tabs={[
          { to: `/admin/user/${id}/groups`, label: ru.tabs.groups },
          { to: `/admin/user/${id}/actives`, label: ru.tabs.actives },
        ]}
      />
      <Outlet />
    </Stack>
  );
}
