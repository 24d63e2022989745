import type { ShareLink } from "../../db/schema";
import { fromBase64Url, toBase64Url } from "../../shared/lib/encoding";
import { signUrl, verifyUrl } from "../lib/sign";

/**
 * The guest session of a review link (docs/decisions/061-review-and-approval.md, "External reviewers"): the name the
 * reviewer gave and whether they confirmed the link's address, in a signed httpOnly cookie named after the link.
 * The signature covers the link id, its reviewer, its password hash's tail and the values, so a session is good for
 * that one link only, cannot be edited, and ends when the link's password changes (as the unlock cookie does).
 */

export const guestSessionTtl = 30 * 24 * 3600;
export const guestCookieName = (linkId: string) => `mam_rv_${linkId}`;

export interface GuestSession {
  name: string;
  verified: boolean;
}

const subject = (link: ShareLink, s: GuestSession) =>
  `${link.linkId}:${link.reviewerId}:${link.passwordHash?.slice(-24) ?? ""}:${s.verified ? 1 : 0}:${s.name}`;

const encodeName = (name: string) => toBase64Url(new TextEncoder().encode(name));
const decodeName = (text: string) => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(text));
  } catch {
    return null;
  }
};

export async function sessionValue(secret: string, link: ShareLink, s: GuestSession, now: number) {
  const params = new URLSearchParams(await signUrl(secret, "review-guest", subject(link, s), now + guestSessionTtl));
  return `${params.get("exp")}.${params.get("sig")}.${s.verified ? 1 : 0}.${encodeName(s.name)}`;
}

/** The session the cookie carries, or null for none, an expired one, one of another link or one tampered with. */
export async function readSession(secret: string, link: ShareLink, value: string | undefined): Promise<GuestSession | null> {
  const [exp, sig, v, name64, ...rest] = (value ?? "").split(".");
  if (rest.length || (v !== "0" && v !== "1") || !name64) return null;
  const name = decodeName(name64);
  if (!name) return null;
  const s = { name, verified: v === "1" };
  return (await verifyUrl(secret, "review-guest", subject(link, s), exp, sig)) ? s : null;
}

/** httpOnly, Lax (the link arrives by mail), for the page and the guest API alike; bound to the link by name and signature. */
export const sessionCookie = (linkId: string, value: string, secure: boolean) =>
  `${guestCookieName(linkId)}=${value}; Path=/; Max-Age=${guestSessionTtl}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;

/**
 * The e-mail code: six digits from an HMAC of the link, its address and a 15-minute window, so nothing is stored;
 * the code of the current and the previous window is accepted (15 to 30 minutes). Guesses are throttled by the caller.
 */
export async function emailCode(secret: string, link: ShareLink, window: number) {
  const p = new URLSearchParams(await signUrl(secret, "review-code", `${link.linkId}:${link.emails[0] ?? ""}`, window));
  const sig = p.get("sig") ?? "";
  return String(Number.parseInt(sig.slice(0, 12), 16) % 1_000_000).padStart(6, "0");
}

export const codeWindow = (now: number) => Math.floor(now / 900);
