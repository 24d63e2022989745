import { redirect } from "@remix-run/react";
import { refreshAccessState, signInWithToken } from "./auth";
import { HOME_PATH, safeReturnPath as safePathFor } from "../../shared/lib/return-path";
import { isAuthenticated, type Session } from "./session";

export { HOME_PATH };
export const LOGIN_PATH = "/login";

const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The `to` query value, when it is a path of this site (shared/lib/return-path.ts); /mam otherwise. */
export function safeReturnPath(to: string | null | undefined): string {
  return safePathFor(to, typeof window === "undefined" ? undefined : window.location.origin);
}

export function loginPathFor(wanted: string): string {
  return `${LOGIN_PATH}?to=${encodeURIComponent(wanted)}`;
}

/**
 * The navigation rules once the access state is known (the share-link page always passes, a non-admin in
 * the admin area goes to /mam, a signed-in user on /login goes to /mam, a signed-out one goes to /login
 * with the wanted path in `to`): where to send the user, or null to let the navigation through.
 */
export function guardRedirect(url: URL, session: Session): string | null {
  const path = url.pathname;
  const signedIn = isAuthenticated(session);
  if (isUnder(path, "/sl")) return null;
  if (path === LOGIN_PATH) return signedIn ? HOME_PATH : null;
  if (!signedIn) return loginPathFor(path + url.search);
  if (isUnder(path, "/admin") && !session.user?.is_admin) return HOME_PATH;
  return null;
}

/** Runs before every screen (clientLoader of the layout, /login and /editor): the redirect, or null. */
export async function runNavigationGuard(url: URL): Promise<string | null> {
  if (isUnder(url.pathname, "/sl")) return null;

  const handedToken = url.pathname === LOGIN_PATH ? url.searchParams.get("token") : null;
  if (handedToken) {
    const user = await signInWithToken(handedToken);
    const to = url.searchParams.get("to");
    // A rejected token leaves the user on the form, without the token in the address bar.
    if (!user) return to ? loginPathFor(to) : LOGIN_PATH;
    return safeReturnPath(to);
  }

  return guardRedirect(url, await refreshAccessState());
}

/** For a clientLoader: throws the guard's redirect, returns when the navigation may go on. */
export async function enforceNavigationGuard(request: Request): Promise<void> {
  const target = await runNavigationGuard(new URL(request.url));
  if (target) throw redirect(target);
}
