import { useAdminUser } from "../components/admin/context";
import { UserTeams } from "../components/admin/UserTeams";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.userGroups);

/** The teams the user is a member of. */
export default function UserGroupsTab() {
  const { user } = useAdminUser();
  return <UserTeams userId={user.user_id} />;
}
