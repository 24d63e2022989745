import { Button, Group } from "@mantine/core";
import { NavLink } from "@remix-run/react";
import { ru } from "../../i18n/ru";

const LINKS = [
  { to: "/mam", label: ru.nav.files },
  { to: "/search", label: ru.nav.search },
  { to: "/jobs", label: ru.nav.jobs },
  { to: "/automations", label: ru.nav.automations },
  { to: "/shop", label: ru.nav.shop },
  { to: "/trash", label: ru.trash.nav },
];
const ADMIN_LINK = { to: "/admin", label: ru.nav.admin };

/** Top-level sections; Администрирование only for admins. */
export function MainNav({ isAdmin }: { isAdmin: boolean }) {
  const links = isAdmin ? [...LINKS, ADMIN_LINK] : LINKS;
  return (
    <Group component="nav" gap={4} aria-label={ru.app.name}>
      {links.map((link) => (
        <NavLink key={link.to} to={link.to} prefetch="intent" style={{ textDecoration: "none" }}>
          {({ isActive }) => (
            <Button component="span" variant={isActive ? "light" : "subtle"} color={isActive ? undefined : "gray"} size="sm">
              {link.label}
            </Button>
          )}
        </NavLink>
      ))}
    </Group>
  );
}
