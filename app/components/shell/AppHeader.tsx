import { Burger, Button, Group, Text } from "@mantine/core";
import { Link, useNavigate } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { logout } from "../../lib/auth";
import type { CurrentUser } from "../../lib/session";
import { IconLogout } from "../icons";
import { AppPasswordsButton } from "./AppPasswords";
import { MainNav } from "./MainNav";

/**
 * The header. On a phone (below Mantine's "sm") the sections and the account's actions move into the shell's
 * navbar behind «Меню» (`menuOpen`, `onMenu`), as Mantine's AppShell does it; the header keeps the title.
 */
export function AppHeader({ user, menuOpen, onMenu }: { user: CurrentUser | null; menuOpen?: boolean; onMenu?: () => void }) {
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="lg" wrap="nowrap" miw={0}>
        <Burger opened={menuOpen ?? false} onClick={onMenu} hiddenFrom="sm" size="sm" aria-label={ru.nav.menu} title={ru.nav.menu} />
        <Text component={Link} to="/mam" fw={700} size="lg" style={{ textDecoration: "none", color: "inherit", whiteSpace: "nowrap" }}>
          {ru.app.name}
        </Text>
        <Group visibleFrom="sm" wrap="nowrap">
          <MainNav isAdmin={user?.is_admin ?? false} />
        </Group>
      </Group>
      <AccountActions user={user} visibleFrom="sm" />
    </Group>
  );
}

/** The signed-in user's name and actions: in the header, or in the phone's menu. */
export function AccountActions({ user, visibleFrom }: { user: CurrentUser | null; visibleFrom?: "sm" }) {
  const navigate = useNavigate();
  return (
    <Group gap="sm" wrap={visibleFrom ? "nowrap" : "wrap"} visibleFrom={visibleFrom}>
      <Text size="sm" c="dimmed" data-testid={visibleFrom ? "current-user" : undefined}>
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
  );
}
