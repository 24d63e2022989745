import { Button, Group, Text } from "@mantine/core";
import { Link, useNavigate } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { logout } from "../../lib/auth";
import type { CurrentUser } from "../../lib/session";
import { IconLogout } from "../icons";
import { AppPasswordsButton } from "./AppPasswords";
import { MainNav } from "./MainNav";

export function AppHeader({ user }: { user: CurrentUser | null }) {
  const navigate = useNavigate();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="lg" wrap="nowrap">
        <Text component={Link} to="/mam" fw={700} size="lg" style={{ textDecoration: "none", color: "inherit" }}>
          {ru.app.name}
        </Text>
        <MainNav isAdmin={user?.is_admin ?? false} />
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" c="dimmed" data-testid="current-user">
          {user?.name}
        </Text>
        <AppPasswordsButton />
        <Button
          variant="subtle"
          color="gray"
          size="sm"
          leftSection={<IconLogout />}
          onClick={() => logout((path) => navigate(path, { replace: true }))}
        >
          {ru.nav.logout}
        </Button>
      </Group>
    </Group>
  );
}
