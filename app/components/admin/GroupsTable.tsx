import { Anchor, Table } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";

const c = ru.admin.groups.columns;

export interface GroupLine {
  group_id: string;
  group_name: string;
  users?: number;
}

/** Groups with a link to their admin screen, and the team size when known. */
export function GroupsTable({ groups }: { groups: GroupLine[] }) {
  const withUsers = groups.some((g) => g.users !== undefined);
  return (
    <Table striped highlightOnHover verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{c.name}</Table.Th>
          {withUsers && <Table.Th>{c.users}</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groups.map((g) => (
          <Table.Tr key={g.group_id} data-testid="group-row">
            <Table.Td>
              <Anchor component={Link} to={`/admin/group/${g.group_id}`}>
                {g.group_name}
              </Anchor>
            </Table.Td>
            {withUsers && <Table.Td>{g.users ?? 0}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
