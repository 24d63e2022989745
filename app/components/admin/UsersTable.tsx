import { Anchor, Button, Group, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import type { AdminUser } from "../../lib/admin-api";
import { EnableToggle } from "./EnableToggle";
import { UserBadges } from "./UserBadges";

const c = ru.admin.users.columns;

/** One row per user: name (to the user's screen), login, kind, rule count, edit and enable/disable. */
export function UsersTable({ users, onEdit, onChanged }: { users: AdminUser[]; onEdit: (u: AdminUser) => void; onChanged: () => void }) {
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {[c.name, c.login, c.kind, c.rules, c.actions].map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((u) => (
            <Table.Tr key={u.user_id} data-testid="user-row" data-login={u.login}>
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
              <Table.Td>{u.acl_count}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => onEdit(u)}>
                    {ru.admin.users.edit}
                  </Button>
                  <EnableToggle user={u} onChanged={onChanged} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
