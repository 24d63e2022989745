import type { z } from "@hono/zod-openapi";
import type { ssoProvider } from "../../shared/sso/schemas";
import * as auth from "../../shared/auth/contract";
import * as sso from "../../shared/sso/contract";
import { runAction } from "./actions";
import { call, refreshTokens } from "./api";
import { clearTokens, expiresSoon, jwtExpiry, sessionStore, setTokens, setUser, type CurrentUser, type Session } from "./session";

export type SsoProvider = z.infer<typeof ssoProvider>;

/** GET /api/auth/whoami. Failures are silent (no toast); a 401 has already cleared the tokens. */
export async function loadCurrentUser(): Promise<CurrentUser | null> {
  const user = await runAction(() => call(auth.getWhoami), { silent: true });
  setUser(user ?? null);
  return user ?? null;
}

/** POST /api/auth/login, then loads the user. A refusal is thrown to the form, which shows it (applyServerErrors). */
export async function login(user: string, passwd: string): Promise<CurrentUser | null> {
  const tokens = await call(auth.login, { body: { user, passwd } });
  setTokens({ bearer: tokens.bearer, expire: tokens.expire ?? null });
  return loadCurrentUser();
}

/**
 * /login?token=X (single sign-on hand-over): X is a one-time code that POST /api/auth/exchange-token turns
 * into the access token (and the refresh cookie); then the user is loaded. A refused code shows its toast.
 */
export async function signInWithToken(token: string): Promise<CurrentUser | null> {
  const tokens = await runAction(() => call(sso.exchangeToken, { body: { token } }));
  if (!tokens) return null;
  setTokens({ bearer: tokens.bearer, expire: tokens.expire ?? jwtExpiry(tokens.bearer) });
  return loadCurrentUser();
}

/** Logout clears tokens and goes to /login, even when the server call fails. */
export async function logout(goTo: (path: string) => void = (path) => window.location.assign(path)): Promise<void> {
  await runAction(() => call(auth.logout), { silent: true });
  clearTokens({ loggedOut: true });
  goTo("/login");
}

let accessCheck: Promise<Session> | null = null;

/**
 * The guard first brings the access state up to date: a fresh bearer and a known user. The layout's and
 * the screen's loaders run at once (app/lib/route-data.ts), so concurrent callers share one check.
 */
export function refreshAccessState(): Promise<Session> {
  accessCheck ??= (async () => {
    const { tokens } = sessionStore.get();
    if (!tokens || expiresSoon(tokens)) await refreshTokens();
    const current = sessionStore.get();
    if (current.tokens && !current.user) await loadCurrentUser();
    return sessionStore.get();
  })().finally(() => {
    accessCheck = null;
  });
  return accessCheck;
}

export async function fetchSsoProviders(): Promise<SsoProvider[]> {
  const providers = await runAction(() => call(sso.ssoProviders));
  return Array.isArray(providers) ? providers : [];
}
