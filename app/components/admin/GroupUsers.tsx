import { ru } from "../../i18n/ru";
import type { AdminUser } from "../../lib/admin-api";
import { MembershipList } from "./MembershipList";
import { Pager } from "./Pager";
import { findUsers } from "./pickers";
import { UserCells } from "./UserCells";
import { useTeamMembership } from "./use-team-membership";

const t = ru.admin.teams;

/** The users who are members of a group (its team), one page of them; add by search, remove per row. */
export function GroupUsers({ groupId, page, members }: { groupId: string; page: number; members: AdminUser[] }) {
  const team = useTeamMembership({ added: t.userAdded, removed: t.userRemoved });
  return (
    <MembershipList
      title={t.members}
      addLabel={t.addUser}
      search={findUsers}
      onAdd={(userId) => team.add(groupId, userId)}
      onRemove={(u) => team.remove(groupId, u.user_id)}
      pickerTestId="member-picker"
      emptyText={t.membersEmpty}
      rows={members}
      rowKey={(u) => u.user_id}
      rowTestId="member-row"
      footer={<Pager page={page} rows={members.length} />}
    >
      {(u) => <UserCells user={u} />}
    </MembershipList>
  );
}
