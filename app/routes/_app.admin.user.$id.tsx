import { Stack, Text } from "@mantine/core";
import { Outlet, useParams } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import type { AdminUserContext } from "../components/admin/context";
import { SsoLinks } from "../components/admin/SsoLinks";
import { TokensPanel } from "../components/admin/TokensPanel";
import { UserSummary } from "../components/admin/UserSummary";
import { RouteTabs } from "../components/RouteTabs";
import { ru } from "../i18n/ru";
import { getUser, type AdminUser } from "../lib/admin-api";
import { showError } from "../lib/notify";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.user);

/** One user in the admin area: the summary, a robot's tokens, and the tabs /groups and /actives (spec 2). */
export default function AdminUserLayout() {
  const { id = "" } = useParams();
  const [user, setUser] = useState<AdminUser | null>(null);
  const [failed, setFailed] = useState(false);

  const reload = useCallback(() => {
    getUser(id).then(setUser, (error) => {
      showError(error);
      setFailed(true);
    });
  }, [id]);
  useEffect(() => {
    setUser(null);
    setFailed(false);
    reload();
  }, [reload]);

  if (!user) return <Text c="dimmed">{failed ? ru.admin.empty : ru.admin.loading}</Text>;
  const context: AdminUserContext = { user };
  return (
    <Stack gap="md">
      <UserSummary user={user} onChanged={reload} />
      {user.is_robot && <TokensPanel userId={user.user_id} />}
      <SsoLinks userId={user.user_id} />
      <RouteTabs
        tabs={[
          { to: `/admin/user/${id}/groups`, label: ru.tabs.groups },
          { to: `/admin/user/${id}/actives`, label: ru.tabs.actives },
        ]}
      />
      <Outlet context={context} />
    </Stack>
  );
}
