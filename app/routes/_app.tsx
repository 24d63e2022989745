import { AppShell } from "@mantine/core";
import { Outlet, useLocation, useNavigate, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useEffect } from "react";
import { PageLoader } from "../components/PageLoader";
import { AppHeader } from "../components/shell/AppHeader";
import { enforceNavigationGuard, loginPathFor } from "../lib/guard";
import { sessionStore } from "../lib/session";
import { useStore } from "../lib/store";

/**
 * The signed-in layout (spec 2 "root layout"). Tokens live in the browser, so the navigation guard runs
 * here, in the browser, before every navigation into or inside the layout.
 */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await enforceNavigationGuard(request);
  return null;
}
clientLoader.hydrate = true as const;

/** Every navigation re-runs the guard (the token may be near expiry, the user may have lost admin). */
export const shouldRevalidate = () => true;

export const HydrateFallback = PageLoader;

export default function AppLayout() {
  const { user, tokens, loggedOut } = useStore(sessionStore);
  const location = useLocation();
  const navigate = useNavigate();

  // A 401 anywhere clears the tokens (spec 8): sign in again and come back here. Logout goes to /login itself.
  useEffect(() => {
    if (!tokens && !loggedOut) navigate(loginPathFor(location.pathname + location.search), { replace: true });
  }, [tokens, loggedOut, location.pathname, location.search, navigate]);

  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <AppHeader user={user} />
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
