import { Table } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { AdminUser } from "../../lib/admin-api";
import { DangerButton } from "../ui/RowActions";
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
      pickerTestId="member-picker"
      emptyText={t.membersEmpty}
      rows={members}
      footer={<Pager page={page} rows={members.length} />}
    >
      {(u) => (
        <Table.Tr key={u.user_id} data-testid="member-row">
          <UserCells user={u} />
          <Table.Td w={120}>
            <DangerButton onClick={() => team.remove(groupId, u.user_id)}>{ru.admin.remove}</DangerButton>
          </Table.Td>
        </Table.Tr>
      )}
    </MembershipList>
  );
}
