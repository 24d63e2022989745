import { Anchor, Button, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { addTeamMembers, listUsers, removeTeamMembers } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { AddPicker } from "./AddPicker";
import { Pager } from "./Pager";
import { findUsers } from "./pickers";
import { UserBadges } from "./UserBadges";
import { usePaged } from "./usePaged";
import { PAGE_SIZE } from "../../../functions/lib/constants";

const t = ru.admin.teams;

/** The users who are members of a group (its team), paged; add by search, remove per row. */
export function GroupUsers({ groupId }: { groupId: string }) {
  const { page, setPage, rows, reload } = usePaged((skip, take, signal) => listUsers({ group: groupId, skip, take }, signal), PAGE_SIZE, [
    groupId,
  ]);

  async function add(userId: string) {
    if ((await runAction(() => addTeamMembers(groupId, [userId]))) === undefined) return false;
    showInfo(t.userAdded);
    reload();
    return true;
  }
  async function remove(userId: string) {
    if ((await runAction(() => removeTeamMembers(groupId, [userId]))) === undefined) return;
    showInfo(t.userRemoved);
    reload();
  }

  return (
    <Stack gap="md">
      <Title order={4}>{t.members}</Title>
      <AddPicker label={t.addUser} search={findUsers} onAdd={(o) => add(o.value)} testId="member-picker" />
      {rows === null ? (
        <Text c="dimmed">{ru.admin.loading}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t.membersEmpty}</Text>
      ) : (
        <Table striped verticalSpacing="xs">
          <Table.Tbody>
            {rows.map((u) => (
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
      <Pager page={page} rows={rows?.length ?? 0} pageSize={PAGE_SIZE} onChange={setPage} />
    </Stack>
  );
}
