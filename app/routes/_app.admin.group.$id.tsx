import { Stack, Title } from "@mantine/core";
import { Outlet, useParams } from "@remix-run/react";
import { RouteTabs } from "../components/RouteTabs";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.group);

/** One group in the admin area, with the tabs /users and /actives (spec 2). */
export default function AdminGroupLayout() {
  const { id } = useParams();
  return (
    <Stack gap="md">
      <Title order={2}>{ru.pages.group}</Title>
      <RouteTabs
        tabs={[
          { to: `/admin/group/${id}/users`, label: ru.tabs.users },
          { to: `/admin/group/${id}/actives`, label: ru.tabs.actives },
        ]}
      />
      <Outlet />
    </Stack>
  );
}
