import { useLoaderData } from "@remix-run/react";
import { useAdminUser } from "../components/admin/context";
import { UserTeams } from "../components/admin/UserTeams";
import { ru } from "../i18n/ru";
import { getMembership } from "../lib/admin-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.userGroups);

export const clientLoader = screenLoader(async ({ params, request }) => ({ teams: await getMembership(params.id ?? "", request.signal) }));

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** The teams the user is a member of. */
export default function UserGroupsTab() {
  const { teams } = useLoaderData<typeof clientLoader>();
  const { user } = useAdminUser();
  return <UserTeams userId={user.user_id} teams={teams} />;
}
