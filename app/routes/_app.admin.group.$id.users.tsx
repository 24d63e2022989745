import { useLoaderData } from "@remix-run/react";
import { useAdminGroup } from "../components/admin/context";
import { GroupUsers } from "../components/admin/GroupUsers";
import { listParams } from "../components/admin/list-params";
import { ru } from "../i18n/ru";
import { listUsers } from "../lib/admin-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.groupUsers);

/** One page (?page=) of the group's team members. */
export const clientLoader = screenLoader(async ({ params, request }) => {
  const { page, skip, take } = listParams(request);
  return { page, members: await listUsers({ group: params.id, skip, take }, request.signal) };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** The group's team members. */
export default function GroupUsersTab() {
  const { page, members } = useLoaderData<typeof clientLoader>();
  const { group } = useAdminGroup();
  return <GroupUsers groupId={group.group_id} page={page} members={members} />;
}
