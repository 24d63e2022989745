import { Anchor, Table } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import type { Team } from "../../lib/admin-api";
import { MembershipList } from "./MembershipList";
import { findGroups } from "./pickers";
import { useTeamMembership } from "./use-team-membership";

const t = ru.admin.teams;

/** The groups a user is a member of (a team's rules reach its members); add by search, remove per row. */
export function UserTeams({ userId, teams }: { userId: string; teams: Team[] }) {
  const team = useTeamMembership({ added: t.added, removed: t.removed });
  return (
    <MembershipList
      title={t.title}
      addLabel={t.add}
      search={findGroups}
      onAdd={(groupId) => team.add(groupId, userId)}
      onRemove={(g) => team.remove(g.group_id, userId)}
      pickerTestId="team-picker"
      emptyText={t.empty}
      rows={teams}
      rowKey={(g) => g.group_id}
      rowTestId="team-row"
    >
      {(g) => (
        <Table.Td>
          <Anchor component={Link} to={`/admin/group/${g.group_id}`}>
            {g.group_name}
          </Anchor>
        </Table.Td>
      )}
    </MembershipList>
  );
}
