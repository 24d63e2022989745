import { signUrl, verifyUrl } from "../lib/sign";

/**
 * The two secrets of a share link: its id (the URL is the capability) and the unlock cookie that
 * a correct password earns. Both come from the CSPRNG or an HMAC, never from time or a counter.
 */

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const linkIdLength = 22;

/** 22 base62 characters, ~131 bits. Bytes >= 248 are dropped so every character is equally likely. */
export function newLinkId(): string {
  let id = "";
  while (id.length < linkIdLength) {
    for (const b of crypto.getRandomValues(new Uint8Array(32))) {
      if (b < 248 && id.length < linkIdLength) id += base62[b % 62];
    }
  }
  return id;
}

/** What may be shown of an id where the id itself must not appear (lists for readers, logs). */
export const maskedLinkId = (linkId: string) => `${linkId.slice(0, 4)}…`;

/** Short-lived: long enough to watch a film on the page, short enough that a shared machine forgets. */
export const unlockTtlSeconds = 3600;
export const unlockCookieName = (linkId: string) => `mam_sl_${linkId}`;

/**
 * The password hash's tail (salt and hash, re-drawn on every set) is part of what is signed, so changing
 * or removing the password ends every unlock issued before.
 */
const subject = (linkId: string, passwordHash: string) => `${linkId}:${passwordHash.slice(-24)}`;

export async function unlockValue(secret: string, linkId: string, passwordHash: string, now: number) {
  const params = new URLSearchParams(await signUrl(secret, "sl-unlock", subject(linkId, passwordHash), now + unlockTtlSeconds));
  return `${params.get("exp")}.${params.get("sig")}`;
}

export async function verifyUnlock(secret: string, linkId: string, passwordHash: string, value: string | undefined) {
  const [exp, sig] = (value ?? "").split(".");
  return verifyUrl(secret, "sl-unlock", subject(linkId, passwordHash), exp, sig);
}

/** httpOnly, Lax (the page is opened from mail and chat links), bound to this link by name and signature. */
export function unlockCookie(linkId: string, value: string, secure: boolean) {
  return `${unlockCookieName(linkId)}=${value}; Path=/; Max-Age=${unlockTtlSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function readCookie(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
