import { Stack } from "@mantine/core";
import { Outlet, useLoaderData, useParams } from "@remix-run/react";
import type { AdminUserData } from "../components/admin/context";
import { SsoLinks } from "../components/admin/SsoLinks";
import { TokensPanel } from "../components/admin/TokensPanel";
import { UserSummary } from "../components/admin/UserSummary";
import { RouteTabs } from "../components/RouteTabs";
import { ru } from "../i18n/ru";
import { getUser, listTokens, ssoLinks } from "../lib/admin-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.user);

/** The user, their API tokens (shown for a robot) and single sign-on links, in one round of calls. */
export const clientLoader = screenLoader(async ({ params, request }): Promise<AdminUserData> => {
  const id = params.id ?? "";
  const [user, tokens, links] = await Promise.all([
    getUser(id, request.signal),
    listTokens(id, request.signal),
    ssoLinks(id, request.signal),
  ]);
  return { user, tokens, links };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** One user in the admin area: the summary, a robot's tokens, and the tabs /groups and /actives, which read the user from here. */
export default function AdminUserLayout() {
  const { user, tokens, links } = useLoaderData<typeof clientLoader>();
  // The tabs match the address as typed.
  const { id = "" } = useParams();
  return (
    <Stack gap="md">
      <UserSummary user={user} />
      {user.is_robot && <TokensPanel userId={user.user_id} tokens={tokens} />}
      <SsoLinks userId={user.user_id} links={links} />
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
