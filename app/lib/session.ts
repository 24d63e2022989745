import { createStore } from "./store";

/** Spec 3 "Tokens": `expire` is unix seconds; null when unknown (a token handed over in /login?token=). */
export interface Tokens {
  bearer: string;
  expire: number | null;
}

/** Spec 3 "Current-user info" as returned by GET /api/auth/whoami. */
export interface CurrentUser {
  id: string;
  name: string;
  is_admin: boolean;
  any_acls: boolean;
}

export interface Session {
  tokens: Tokens | null;
  user: CurrentUser | null;
  /** The tokens went away by the user's own logout, not by a 401 or a failed refresh. */
  loggedOut: boolean;
}

/** Spec 9: the bearer is refreshed when it expires within this many seconds. */
export const REFRESH_MARGIN_SECONDS = 120;

const STORAGE_KEY = "mam.tokens";
const isBrowser = typeof window !== "undefined";

/** Created empty so the server render and hydration agree; the browser loads its tokens right after. */
export const sessionStore = createStore<Session>({ tokens: null, user: null, loggedOut: false });

/**
 * A copy of the bearer for the server's page loaders, which render the first page of a group with the HTML
 * (app/components/mam/contents.server.ts; docs/decisions/014). SameSite=Strict, read only by GET page
 * loaders: the API itself takes the bearer from the Authorization header alone.
 */
export const BEARER_COOKIE = "mam_bearer";

function writeBearerCookie(tokens: Tokens | null): void {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  const ttl = tokens?.expire ? Math.max(0, tokens.expire - Math.floor(Date.now() / 1000)) : null;
  const value = tokens && ttl !== 0 ? `${encodeURIComponent(tokens.bearer)}${ttl ? `; Max-Age=${ttl}` : ""}` : "; Max-Age=0";
  document.cookie = `${BEARER_COOKIE}=${value}; Path=/; SameSite=Strict${secure}`;
}

if (isBrowser) {
  // Written on the first set too, so a cookie left from an earlier session never outlives the stored tokens.
  let cookieBearer: string | undefined | null = null;
  sessionStore.subscribe(({ tokens }) => {
    if (tokens?.bearer === cookieBearer) return;
    cookieBearer = tokens?.bearer;
    writeBearerCookie(tokens);
  });
  sessionStore.set({ tokens: readStoredTokens(), user: null, loggedOut: false });
  // Another tab signed in, refreshed or signed out: follow it.
  window.addEventListener("storage", (event) => {
    if (event.key !== STORAGE_KEY) return;
    const tokens = readStoredTokens();
    if (tokens?.bearer !== sessionStore.get().tokens?.bearer) {
      sessionStore.set({ tokens, user: tokens ? sessionStore.get().user : null, loggedOut: false });
    }
  });
}

/** The tokens as stored now — possibly newer than this tab's copy when another tab refreshed. */
export function readStoredTokens(): Tokens | null {
  if (!isBrowser) return null;
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    return typeof parsed?.bearer === "string" ? { bearer: parsed.bearer, expire: parsed.expire ?? null } : null;
  } catch {
    return null;
  }
}

export function setTokens(tokens: Tokens): void {
  if (isBrowser) localStorage.setItem(STORAGE_KEY, JSON.stringify(tokens));
  sessionStore.set({ ...sessionStore.get(), tokens, loggedOut: false });
}

export function setUser(user: CurrentUser | null): void {
  sessionStore.set({ ...sessionStore.get(), user });
}

/** Forgets the bearer and the user (401, failed refresh, logout). */
export function clearTokens(options: { loggedOut?: boolean } = {}): void {
  if (isBrowser) localStorage.removeItem(STORAGE_KEY);
  const { tokens, user } = sessionStore.get();
  if (tokens || user) sessionStore.set({ tokens: null, user: null, loggedOut: options.loggedOut ?? false });
}

export function expiresSoon(tokens: Tokens, nowMs = Date.now()): boolean {
  return tokens.expire !== null && tokens.expire * 1000 - nowMs < REFRESH_MARGIN_SECONDS * 1000;
}

export function isAuthenticated(session: Session): boolean {
  return session.tokens !== null && session.user !== null;
}

/** The `exp` claim of a JWT, or null when the token is not a readable JWT. */
export function jwtExpiry(token: string): number | null {
  try {
    const payload = token.split(".")[1];
    if (!payload) return null;
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const exp = JSON.parse(json).exp;
    return typeof exp === "number" ? exp : null;
  } catch {
    return null;
  }
}
