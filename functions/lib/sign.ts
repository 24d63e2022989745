import { fromHex, toHex } from "../../shared/lib/encoding";
import { urlSigningKey as hmacKey } from "./keys";

/**
 * Short-lived URL signatures (HMAC-SHA256 over purpose, subject and expiry) for what is fetched without
 * headers: Worker-path part PUTs, play links, the transcoder's output URLs, share-link unlock cookies.
 * Callers pass JWT_SECRET; the key is the URL-signing one derived from it (functions/lib/keys.ts).
 */

export async function signUrl(secret: string, purpose: string, subject: string, expires: number) {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(`${purpose}\n${subject}\n${expires}`));
  return `exp=${expires}&sig=${toHex(mac)}`;
}

export async function verifyUrl(secret: string, purpose: string, subject: string, exp: string | undefined, sig: string | undefined) {
  const expires = Number(exp);
  if (!sig || !/^[0-9a-f]{64}$/.test(sig) || !Number.isInteger(expires) || expires < Date.now() / 1000) return false;
  const bytes = fromHex(sig);
  return crypto.subtle.verify("HMAC", await hmacKey(secret), bytes, new TextEncoder().encode(`${purpose}\n${subject}\n${expires}`));
}
