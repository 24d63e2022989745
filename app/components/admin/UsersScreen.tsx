import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { listUsers, type AdminUser } from "../../lib/admin-api";
import { Pager } from "./Pager";
import { usePaged } from "./usePaged";
import { UserFormModal } from "./UserFormModal";
import { UsersTable } from "./UsersTable";
import { PAGE_SIZE } from "../../../functions/lib/constants";

/** /admin/active-users and /admin/inactive-users: a searchable, paged user list with create and edit. */
export function UsersScreen({ enabled }: { enabled: boolean }) {
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [q] = useDebouncedValue(text.trim(), 250);
  const { page, setPage, rows, reload } = usePaged<AdminUser>(
    (skip, take, signal) => listUsers({ enabled, q, skip, take }, signal),
    PAGE_SIZE,
    [enabled, q],
  );
  const [editing, setEditing] = useState<AdminUser | undefined>();
  const [formOpen, setFormOpen] = useState(false);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <TextInput
          label={ru.admin.search}
          placeholder={ru.admin.searchUsers}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={320}
        />
        <Button
          onClick={() => {
            setEditing(undefined);
            setFormOpen(true);
          }}
        >
          {ru.admin.users.create}
        </Button>
      </Group>
      {rows === null ? (
        <Text c="dimmed">{ru.admin.loading}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{ru.admin.empty}</Text>
      ) : (
        <UsersTable
          users={rows}
          onEdit={(u) => {
            setEditing(u);
            setFormOpen(true);
          }}
          onChanged={reload}
        />
      )}
      <Pager page={page} rows={rows?.length ?? 0} pageSize={PAGE_SIZE} onChange={setPage} />
      <UserFormModal
        opened={formOpen}
        onClose={() => setFormOpen(false)}
        user={editing}
        onSaved={(id) => (editing ? reload() : navigate(`/admin/user/${id}`))}
      />
    </Stack>
  );
}
