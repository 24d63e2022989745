import { Anchor, Button, Stack, Table, Text, Title } from "@mantine/core";
import { Link, useRevalidator } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { addTeamMembers, removeTeamMembers, type AdminUser } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { AddPicker } from "./AddPicker";
import { Pager } from "./Pager";
import { findUsers } from "./pickers";
import { UserBadges } from "./UserBadges";

const t = ru.admin.teams;

/** The users who are members of a group (its team), one page of them; add by search, remove per row. */
export function GroupUsers({ groupId, page, members }: { groupId: string; page: number; members: AdminUser[] }) {
  const { revalidate } = useRevalidator();

  async function add(userId: string) {
    if ((await runAction(() => addTeamMembers(groupId, [userId]))) === undefined) return false;
    showInfo(t.userAdded);
    revalidate();
    return true;
  }
  async function remove(userId: string) {
    if ((await runAction(() => removeTeamMembers(groupId, [userId]))) === undefined) return;
    showInfo(t.userRemoved);
    revalidate();
  }

  return (
    <Stack gap="md">
      <Title order={4}>{t.members}</Title>
      <AddPicker label={t.addUser} search={findUsers} onAdd={(o) => add(o.value)} testId="member-picker" />
      {members.length === 0 ? (
        <Text c="dimmed">{t.membersEmpty}</Text>
      ) : (
        <Table striped verticalSpacing="xs">
          <Table.Tbody>
            {members.map((u) => (
              <Table.Tr key={u.user_id} data-testid="member-row">
                <Table.Td>
                  <Anchor component={Link} to={`/admin/user/${u.user_id}`}>
                    {u.user_name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {u.login}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <UserBadges user={u} />
                </Table.Td>
                <Table.Td w={120}>
                  <Button size="xs" variant="subtle" color="red" onClick={() => remove(u.user_id)}>
                    {ru.admin.remove}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Pager page={page} rows={members.length} />
    </Stack>
  );
}
