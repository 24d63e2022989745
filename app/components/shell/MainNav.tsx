import { Badge, Button, Group, Stack } from "@mantine/core";
import { NavLink, useRouteLoaderData } from "@remix-run/react";
import { ru } from "../../i18n/ru";

const LINKS = [
  { to: "/mam", label: ru.nav.files },
  { to: "/search", label: ru.nav.search },
  { to: "/inbox", label: ru.review.inbox.nav },
  { to: "/jobs", label: ru.nav.jobs },
  { to: "/automations", label: ru.nav.automations },
  { to: "/shop", label: ru.nav.shop },
  { to: "/trash", label: ru.trash.nav },
];
const ADMIN_LINK = { to: "/admin", label: ru.nav.admin };

/**
 * Top-level sections; Администрирование only for admins. `vertical`: the phone's menu (the shell's navbar), where
 * choosing a section also closes it (`onNavigate`).
 */
export function MainNav({ isAdmin, vertical, onNavigate }: { isAdmin: boolean; vertical?: boolean; onNavigate?: () => void }) {
  const links = isAdmin ? [...LINKS, ADMIN_LINK] : LINKS;
  const Layout = vertical ? Stack : Group;
  // The layout's loader counts unread «Входящие» on every navigation.
  const unread = useRouteLoaderData<{ inboxUnread?: number | null }>("routes/_app")?.inboxUnread ?? 0;
  return (
    <Layout component="nav" gap={4} aria-label={ru.app.name}>
      {links.map((link) => (
        <NavLink key={link.to} to={link.to} prefetch="intent" style={{ textDecoration: "none" }} onClick={onNavigate}>
          {({ isActive }) => (
            <Button
              component="span"
              variant={isActive ? "light" : "subtle"}
              color={isActive ? undefined : "gray"}
              size="sm"
              fullWidth={vertical}
              justify={vertical ? "start" : undefined}
            >
              {link.label}
              {link.to === "/inbox" && unread > 0 && (
                <Badge
                  size="xs"
                  circle={unread < 10}
                  ml={6}
                  color="red"
                  data-testid="inbox-count"
                  aria-label={ru.review.inbox.unread(unread)}
                >
                  {unread > 99 ? "99+" : unread}
                </Badge>
              )}
            </Button>
          )}
        </NavLink>
      ))}
    </Layout>
  );
}
