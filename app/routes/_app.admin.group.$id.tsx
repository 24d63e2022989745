import { Stack, Text, Title } from "@mantine/core";
import { Outlet, useParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { AdminGroupContext } from "../components/admin/context";
import { RouteTabs } from "../components/RouteTabs";
import { ru } from "../i18n/ru";
import { getGroup, type GroupRow } from "../lib/admin-api";
import { showError } from "../lib/notify";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.group);

/** One group in the admin area, with the tabs /users and /actives (spec 2). */
export default function AdminGroupLayout() {
  const { id = "" } = useParams();
  const [group, setGroup] = useState<GroupRow | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setGroup(null);
    setFailed(false);
    getGroup(id).then(setGroup, (error) => {
      showError(error);
      setFailed(true);
    });
  }, [id]);

  if (!group) return <Text c="dimmed">{failed ? ru.admin.groups.notFound : ru.admin.loading}</Text>;
  const context: AdminGroupContext = { group };
  return (
    <Stack gap="md">
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          {ru.pages.group}
        </Text>
        <Title order={2}>{group.group_name}</Title>
      </Stack>
      <RouteTabs
        tabs={[
          { to: `/admin/group/${id}/users`, label: ru.tabs.users },
          { to: `/admin/group/${id}/actives`, label: ru.tabs.actives },
        ]}
      />
      <Outlet context={context} />
    </Stack>
  );
}
