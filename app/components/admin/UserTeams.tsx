import { Anchor, Button, Stack, Table, Text, Title } from "@mantine/core";
import { Link, useRevalidator } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { addTeamMembers, removeTeamMembers, type Team } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { AddPicker } from "./AddPicker";
import { findGroups } from "./pickers";

const t = ru.admin.teams;

/**
 * The groups a user is a member of (a team's rules reach its members). Adds and removes one group at a
 * time through insert-members/delete-members, so two admins editing at once do not undo each other.
 */
export function UserTeams({ userId, teams }: { userId: string; teams: Team[] }) {
  const { revalidate } = useRevalidator();

  async function add(groupId: string) {
    if ((await runAction(() => addTeamMembers(groupId, [userId]))) === undefined) return false;
    showInfo(t.added);
    revalidate();
    return true;
  }
  async function remove(groupId: string) {
    if ((await runAction(() => removeTeamMembers(groupId, [userId]))) === undefined) return;
    showInfo(t.removed);
    revalidate();
  }

  return (
    <Stack gap="md">
      <Title order={4}>{t.title}</Title>
      <AddPicker label={t.add} search={findGroups} onAdd={(o) => add(o.value)} testId="team-picker" />
      {teams.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <Table striped verticalSpacing="xs">
          <Table.Tbody>
            {teams.map((g) => (
              <Table.Tr key={g.group_id} data-testid="team-row">
                <Table.Td>
                  <Anchor component={Link} to={`/admin/group/${g.group_id}`}>
                    {g.group_name}
                  </Anchor>
                </Table.Td>
                <Table.Td w={120}>
                  <Button size="xs" variant="subtle" color="red" onClick={() => remove(g.group_id)}>
                    {ru.admin.remove}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
