import { Stack, Text, Title } from "@mantine/core";
import { Outlet, useLoaderData, useParams } from "@remix-run/react";
import type { AdminGroupData } from "../components/admin/context";
import { GroupStorage } from "../components/admin/GroupStorage";
import { RouteTabs } from "../components/RouteTabs";
import { ru } from "../i18n/ru";
import { getGroup, listStorages } from "../lib/admin-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.group);

export const clientLoader = screenLoader(async ({ params, request }): Promise<AdminGroupData> => {
  const [group, storages] = await Promise.all([getGroup(params.id ?? "", request.signal), listStorages(request.signal)]);
  return { group, storages };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** One group in the admin area, with the tabs /users and /actives; its tabs read the group from this loader. */
export default function AdminGroupLayout() {
  const { group, storages } = useLoaderData<typeof clientLoader>();
  // The tabs match the address as typed.
  const { id = "" } = useParams();
  return (
    <Stack gap="md">
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          {ru.pages.group}
        </Text>
        <Title order={2}>{group.group_name}</Title>
      </Stack>
      <GroupStorage group={group} storages={storages} />
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
