/**
 * Where a sign-in may send the browser afterwards (`/login?to=…`, the single sign-on's return path).
 * Shared by the front end's guard (app/lib/guard.ts) and the API (functions/sso/), so both follow one rule.
 * No server imports: the browser bundle uses it too.
 */

/** Where a refused or missing return path goes. */
export const HOME_PATH = "/mam";

const MAX_LENGTH = 2000;
/** Stand-in origin for resolving a path when the caller does not say which origin is the app's. */
const SOME_ORIGIN = "https://app.invalid";
/** Tab, newline and the other ASCII controls: browsers drop some of them inside URLs ("/\t/evil" is "//evil"). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x1f\x7f]/;
const ESCAPE = /%([0-9a-fA-F]{2})/g;

/**
 * The text and its percent-decodings, byte by byte, until nothing changes; null when it keeps changing.
 * Byte-wise, so a malformed or non-UTF-8 sequence cannot hide an encoded "/", "\" or control.
 */
function decodings(text: string): string[] | null {
  const forms = [text];
  for (let i = 0; i < 4; i++) {
    const last = forms[forms.length - 1];
    const next = last.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === last) return forms;
    forms.push(next);
  }
  return null;
}

const isLoginPath = (path: string) => /^\/login(\/|$)/.test(path);

function sameOriginPath(form: string, origin: string): boolean {
  try {
    const resolved = new URL(form, origin);
    return resolved.origin === origin && !isLoginPath(resolved.pathname);
  } catch {
    return false;
  }
}

/**
 * `to` when it is safe to follow, HOME_PATH otherwise. Refused: anything that does not start with "/",
 * control characters and backslashes (also percent-encoded), anything that resolves — as sent or
 * decoded — to another origin than the app's, and /login itself (no loop).
 */
export function safeReturnPath(to: string | null | undefined, appOrigin: string = SOME_ORIGIN): string {
  if (!to || to.length > MAX_LENGTH || !to.startsWith("/")) return HOME_PATH;
  const forms = decodings(to);
  if (!forms || forms.some((form) => CONTROL.test(form) || form.includes("\\"))) return HOME_PATH;
  let origin: string;
  try {
    origin = new URL(appOrigin).origin;
  } catch {
    return HOME_PATH;
  }
  return forms.every((form) => sameOriginPath(form, origin)) ? to : HOME_PATH;
}
