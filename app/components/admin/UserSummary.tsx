import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import type { AdminUser } from "../../lib/admin-api";
import { EnableToggle } from "./EnableToggle";
import { UserBadges } from "./UserBadges";
import { UserFormModal } from "./UserFormModal";

/** The head of /admin/user/{id}: name, login, kind, edit and enable/disable. */
export function UserSummary({ user, onChanged }: { user: AdminUser; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  return (
    <Group justify="space-between" align="start">
      <Stack gap={4}>
        <Title order={2}>{user.user_name}</Title>
        <Group gap="xs">
          <Text ff="monospace" size="sm" c="dimmed">
            {user.login}
          </Text>
          <UserBadges user={user} />
        </Group>
      </Stack>
      <Group gap="xs">
        <Button variant="default" onClick={() => setEditing(true)}>
          {ru.admin.users.edit}
        </Button>
        <EnableToggle user={user} onChanged={onChanged} />
      </Group>
      <UserFormModal opened={editing} onClose={() => setEditing(false)} user={user} onSaved={onChanged} />
    </Group>
  );
}
