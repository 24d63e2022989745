import { hasPageCookie } from "../auth/page-session";
import { configOf } from "../lib/config";
import { toBase64 } from "../../shared/lib/encoding";

/**
 * The headers every answer of the Worker carries, pages and API alike (docs/decisions/022). worker.ts
 * wraps its fetch with `secureResponse`; the Remix document gets the request's nonce for its inline scripts.
 * An answer that set a header on purpose keeps it: a byte-serving route's own sandbox policy, the share
 * page's public Cache-Control. Credentials always win over caching: an answer made with a bearer or the
 * page-session cookie is `no-store`.
 */

/** A fresh nonce per request: 128 random bits, base64. */
export function newNonce(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(16)));
}

/** Where stored files' bytes may come from besides this origin: a separate media origin, when one is set. */
export const mediaOrigin = (env: object): string | null => configOf(env).MEDIA_ORIGIN;

/** The office server's origin (WOPI_CLIENT_URL), which the editor page frames; null when none is set. */
export function officeOrigin(env: object): string | null {
  const value = configOf(env).WOPI_CLIENT_URL;
  try {
    return value ? new URL(value).origin : null;
  } catch {
    return null;
  }
}

/**
 * What the application's policy is made from: this request's nonce, the byte-serving origin, the upload
 * servers and the office server. securityHeaders and secureResponse hand them on to appPolicy as they came.
 */
export type PolicyInputs = [nonce: string, media?: string | null, uploadServers?: readonly string[], office?: string | null];

/**
 * The application's policy. Scripts: the app's own files and inline scripts carrying this request's nonce
 * (Remix's context and route modules, React's streaming, Mantine's colour-scheme script). Styles allow
 * inline: Mantine and React write `style` attributes and <style> elements (decision 022).
 */
export function appPolicy(...[nonce, media = null, uploadServers = [], office = null]: PolicyInputs): string {
  const bytes = media ? `'self' ${media}` : "'self'";
  // The office server (WOPI_CLIENT_URL): the editor page posts the access token into its frame (functions/wopi).
  const officeSrc = office ? ` ${office}` : "";
  // The disk helper on the user's own machine (helper/, docs/decisions/036-webdav-and-disk-helper.md).
  const diskHelper = "http://127.0.0.1:18981";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${bytes} data: blob:`,
    `media-src ${bytes} blob:`,
    "font-src 'self' data:",
    // Uploads may go to another upload server (functions/uploads/servers.ts); the disk helper is on this machine.
    `connect-src ${[bytes, ...uploadServers, diskHelper].join(" ")}`,
    "worker-src 'self'",
    `frame-src ${bytes}${officeSrc}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${officeSrc}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** API answers are data, never a document to run: nothing may load from them, nobody may frame them. */
export const API_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const HSTS = "max-age=31536000";

const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The API's own answers (JSON, the docs page, errors), as opposed to the bytes of stored files. */
function isApiDocument(response: Response): boolean {
  const type = response.headers.get("Content-Type") ?? "";
  return type === "" || /^(application\/([\w.+-]*\+)?json|text\/html)\b/i.test(type);
}

/**
 * A stored file streamed to its owner with a validator (ETag, `private`, revalidated on each use): the
 * browser may keep it, since every use asks the server again with the bearer. Anything else made with
 * credentials is no-store.
 */
function revalidatedBytes(response: Response): boolean {
  return response.headers.has("ETag") && /\bprivate\b/.test(response.headers.get("Cache-Control") ?? "") && !isApiDocument(response);
}

/** Headers to add to (or, for Cache-Control of credentialed answers, impose on) one answer. */
export function securityHeaders(request: Request, response: Response, ...policy: PolicyInputs): Headers {
  const url = new URL(request.url);
  const api = isUnder(url.pathname, "/api");
  const sharePage = isUnder(url.pathname, "/sl") || isUnder(url.pathname, "/api/sl");
  const out = new Headers();
  const add = (name: string, value: string) => {
    if (!response.headers.has(name)) out.set(name, value);
  };

  out.set("X-Content-Type-Options", "nosniff");
  if (url.protocol === "https:") add("Strict-Transport-Security", HSTS);
  // A share link's address is its key: no page of it tells another site where it came from.
  if (sharePage && !api) out.set("Referrer-Policy", "no-referrer");
  else add("Referrer-Policy", sharePage ? "no-referrer" : "strict-origin-when-cross-origin");

  if (!api) add("Content-Security-Policy", appPolicy(...policy));
  else if (isApiDocument(response)) add("Content-Security-Policy", API_POLICY);

  const credentialed = api ? request.headers.has("Authorization") : !sharePage && hasPageCookie(request);
  if (credentialed && !revalidatedBytes(response)) out.set("Cache-Control", "no-store");
  else add("Cache-Control", "no-store");
  return out;
}

/**
 * The answer with the security headers. Headers of a response made here are set in place (that keeps
 * workerd's `encodeBody: "manual"` of pre-compressed answers); an immutable one (from the cache, from
 * fetch) is copied first.
 */
export function secureResponse(request: Request, response: Response, ...policy: PolicyInputs): Response {
  const headers = securityHeaders(request, response, ...policy);
  if (response.status === 101) return response;
  try {
    headers.forEach((value, name) => {
      response.headers.set(name, value);
    });
    return response;
  } catch {
    const copy = new Response(response.body, response);
    headers.forEach((value, name) => {
      copy.headers.set(name, value);
    });
    return copy;
  }
}
