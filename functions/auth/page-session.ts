import { authenticate } from "../lib/auth";
import type { AuthUser, Env } from "../lib/env";

/** Name of the page-session cookie (set in functions/auth/cookie.ts with the refresh cookie). */
export const PAGE_COOKIE = "mam_page";

const SAFE_METHODS = new Set(["GET", "HEAD"]);

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/**
 * Whether the request may be authenticated by a cookie at all. Reads (GET, HEAD) may: they change
 * nothing. Anything else is a possible cross-site form post (the cookie is SameSite=Lax, not Strict),
 * so it must come from a page of this very origin (the CSRF check).
 */
export function cookieAuthAllowed(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.get("Origin");
  return origin !== null && origin === new URL(request.url).origin && request.headers.get("Sec-Fetch-Site") !== "cross-site";
}

/** Whether the request brings the page-session cookie at all (its answer is then made with credentials). */
export const hasPageCookie = (request: Request) => cookieValue(request, PAGE_COOKIE) !== null;

/** The page-session bearer a server page loader may use, or null (none, or refused by the CSRF check). */
export function pageBearer(request: Request): string | null {
  return cookieAuthAllowed(request) ? cookieValue(request, PAGE_COOKIE) : null;
}

/** The signed-in user of a page request, checked as the API checks a bearer (session row, enabled); or null. */
export async function authenticatePage(env: Env, request: Request): Promise<AuthUser | null> {
  const bearer = pageBearer(request);
  return bearer ? authenticate(env, bearer) : null;
}
