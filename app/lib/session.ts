import type { z } from "@hono/zod-openapi";
import type { tokens, whoami } from "../../shared/auth/schemas";
import { fromBase64Url } from "../../shared/lib/encoding";
import { createStore } from "./store";

/** The API's tokens as kept here: `expire` is null when unknown (a token handed over in /login?token=). */
export type Tokens = Omit<z.infer<typeof tokens>, "expire"> & { expire: number | null };

/** GET /api/auth/whoami, as far as the browser keeps it. */
export type CurrentUser = Omit<z.infer<typeof whoami>, "login">;

export interface Session {
  tokens: Tokens | null;
  user: CurrentUser | null;
  /** The tokens went away by the user's own logout, not by a 401 or a failed refresh. */
  loggedOut: boolean;
}

/** Spec 9: the bearer is refreshed when it expires within this many seconds. */
export const REFRESH_MARGIN_SECONDS = 120;

const isBrowser = typeof window !== "undefined";

/**
 * The session lives in this tab's memory only: no page script can read a bearer from storage or from a
 * cookie. A reload restores it through the httpOnly refresh cookie (the guard's refresh). Tabs tell each
 * other about a new bearer and a sign-out over a BroadcastChannel (docs/decisions/022).
 */
export const sessionStore = createStore<Session>({ tokens: null, user: null, loggedOut: false });

type TabMessage = { type: "tokens"; tokens: Tokens } | { type: "signed-out" };

const channel = isBrowser && typeof BroadcastChannel !== "undefined" ? new BroadcastChannel("mam.session") : null;

if (channel) {
  channel.onmessage = ({ data }: MessageEvent<TabMessage>) => {
    const { tokens, user } = sessionStore.get();
    if (data.type === "tokens" && data.tokens.bearer !== tokens?.bearer) {
      // The user stays known only while the new bearer is theirs (another tab may have signed in as someone else).
      const sameUser = user !== null && jwtSubject(data.tokens.bearer) === user.id;
      sessionStore.set({ tokens: data.tokens, user: sameUser ? user : null, loggedOut: false });
    } else if (data.type === "signed-out" && (tokens || user)) {
      // Another tab signed out or lost the session: this one goes to the sign-in form and comes back here.
      sessionStore.set({ tokens: null, user: null, loggedOut: false });
    }
  };
}
if (isBrowser) {
  // Tokens kept in localStorage by earlier versions of the app go.
  try {
    localStorage.removeItem("mam.tokens");
  } catch {
    // Storage may be off; nothing was kept then.
  }
}

export function setTokens(tokens: Tokens): void {
  sessionStore.set({ ...sessionStore.get(), tokens, loggedOut: false });
  channel?.postMessage({ type: "tokens", tokens } satisfies TabMessage);
}

export function setUser(user: CurrentUser | null): void {
  sessionStore.set({ ...sessionStore.get(), user });
}

/** Forgets the bearer and the user (401, failed refresh, logout), in every tab. */
export function clearTokens(options: { loggedOut?: boolean } = {}): void {
  const { tokens, user } = sessionStore.get();
  if (tokens || user) sessionStore.set({ tokens: null, user: null, loggedOut: options.loggedOut ?? false });
  if (tokens) channel?.postMessage({ type: "signed-out" } satisfies TabMessage);
}

export function expiresSoon(tokens: Tokens, nowMs = Date.now()): boolean {
  return tokens.expire !== null && tokens.expire * 1000 - nowMs < REFRESH_MARGIN_SECONDS * 1000;
}

export function isAuthenticated(session: Session): boolean {
  return session.tokens !== null && session.user !== null;
}

function jwtPayload(token: string): Record<string, unknown> | null {
  try {
    const payload = token.split(".")[1];
    if (!payload) return null;
    const parsed = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
    return typeof parsed === "object" && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

/** The `exp` claim of a JWT, or null when the token is not a readable JWT. */
export function jwtExpiry(token: string): number | null {
  const exp = jwtPayload(token)?.exp;
  return typeof exp === "number" ? exp : null;
}

/** The `sub` claim (the user id) of a JWT, or null. */
export function jwtSubject(token: string): string | null {
  const sub = jwtPayload(token)?.sub;
  return typeof sub === "string" ? sub : null;
}
