import { Button, Table } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { AdminUser } from "../../lib/admin-api";
import { DataTable } from "../ui/DataTable";
import { RowActions } from "../ui/RowActions";
import { EnableToggle } from "./EnableToggle";
import { UserCells } from "./UserCells";

const c = ru.admin.users.columns;

/** One row per user: name (to the user's screen), login, kind, rule count, edit and enable/disable. */
export function UsersTable({ users, onEdit, onChanged }: { users: AdminUser[]; onEdit: (u: AdminUser) => void; onChanged: () => void }) {
  return (
    <DataTable
      minWidth={700}
      striped
      highlightOnHover
      verticalSpacing="xs"
      head={[c.name, c.login, c.kind, c.rules, c.actions]}
      rows={users}
    >
      {(u) => (
        <Table.Tr key={u.user_id} data-testid="user-row" data-login={u.login}>
          <UserCells user={u} />
          <Table.Td>{u.acl_count}</Table.Td>
          <RowActions>
            <Button size="xs" variant="default" onClick={() => onEdit(u)}>
              {ru.admin.users.edit}
            </Button>
            <EnableToggle user={u} onChanged={onChanged} />
          </RowActions>
        </Table.Tr>
      )}
    </DataTable>
  );
}
