import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import type { AdminUser } from "../../lib/admin-api";
import { DeleteUserButton } from "./DeleteUserButton";
import { EnableToggle } from "./EnableToggle";
import { UserBadges } from "./UserBadges";
import { useUserForm } from "./UserFormModal";

/** The head of /admin/user/{id}: name, login, kind, edit and enable/disable; a change reloads the screen. */
export function UserSummary({ user }: { user: AdminUser }) {
  const { revalidate } = useRevalidator();
  const form = useUserForm(() => revalidate());
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
        <Button variant="default" onClick={() => form.open(user)}>
          {ru.admin.users.edit}
        </Button>
        <EnableToggle user={user} onChanged={revalidate} />
        <DeleteUserButton user={user} />
      </Group>
      {form.modal}
    </Group>
  );
}
