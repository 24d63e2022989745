import { useAdminGroup } from "../components/admin/context";
import { GroupUsers } from "../components/admin/GroupUsers";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.groupUsers);

/** The group's team members. */
export default function GroupUsersTab() {
  const { group } = useAdminGroup();
  return <GroupUsers groupId={group.group_id} />;
}
