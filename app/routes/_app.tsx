import { AppShell } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation, useMatches, useNavigate, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useEffect } from "react";
import { unreadCount } from "../components/inbox/inbox-api";
import { hasPageSession } from "../server/contents.server";
import { PageLoader } from "../components/PageLoader";
import { AccountActions, AppHeader } from "../components/shell/AppHeader";
import { MainNav } from "../components/shell/MainNav";
import { ru } from "../i18n/ru";
import { enforceNavigationGuard, loginPathFor } from "../lib/guard";
import { sessionStore } from "../lib/session";
import { useStore } from "../lib/store";

/**
 * The signed-in layout. The bearer lives in the browser's memory, so the navigation
 * guard runs here, in the browser, before every navigation into or inside the layout (`guarded`). Until it
 * has run (server render, hydration) the layout shows a loader, except for pages whose handle says
 * `serverRender` when the request carries the page-session cookie: those render with the HTML (their
 * loaders check the bearer like the API does; docs/decisions/014, 022), and the guard still runs on hydration.
 */
interface LayoutData {
  guarded: boolean;
  pageSession: boolean;
  /** Unread items of «Входящие» for the navigation (null: unknown); read again with every navigation. */
  inboxUnread?: number | null;
}

export const loader = ({ request }: LoaderFunctionArgs): LayoutData => ({ guarded: false, pageSession: hasPageSession(request) });

export async function clientLoader({ request }: ClientLoaderFunctionArgs): Promise<LayoutData> {
  await enforceNavigationGuard(request);
  return { guarded: true, pageSession: false, inboxUnread: await unreadCount(request.signal) };
}
clientLoader.hydrate = true as const;

/** Every navigation re-runs the guard (the token may be near expiry, the user may have lost admin). */
export const shouldRevalidate = () => true;

export default function AppLayout() {
  const { user, tokens, loggedOut } = useStore(sessionStore);
  const location = useLocation();
  const navigate = useNavigate();
  const { guarded, pageSession } = useLoaderData<typeof loader>();
  const serverRender = useMatches().some((m) => (m.handle as { serverRender?: boolean } | undefined)?.serverRender);
  // The phone's menu (the navbar below "sm"); on wider screens the sections sit in the header and it stays shut.
  const [menuOpen, menu] = useDisclosure(false);

  // A 401 anywhere clears the tokens: sign in again and come back here. Logout goes to /login itself.
  // Not while a server-rendered page hydrates: the store still shows the server's (empty) session then.
  useEffect(() => {
    if (guarded && !tokens && !loggedOut) navigate(loginPathFor(location.pathname + location.search), { replace: true });
  }, [guarded, tokens, loggedOut, location.pathname, location.search, navigate]);

  if (!guarded && !(pageSession && serverRender)) return <PageLoader />;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 280, breakpoint: "sm", collapsed: { mobile: !menuOpen, desktop: true } }}
      padding={{ base: "xs", sm: "md" }}
    >
      <AppShell.Header>
        <AppHeader user={user} menuOpen={menuOpen} onMenu={menu.toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="md" hiddenFrom="sm" aria-label={ru.nav.menu}>
        {/* Drawn only while open: a closed navbar slides off screen, and its links must not stay reachable. */}
        {menuOpen && (
          <>
            <MainNav isAdmin={user?.is_admin ?? false} vertical onNavigate={menu.close} />
            <AccountActions user={user} />
          </>
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
