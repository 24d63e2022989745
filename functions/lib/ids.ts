import { timingSafeEqual } from "node:crypto";
import { toBase64Url, toHex } from "../../shared/lib/encoding";

export const newId = () => crypto.randomUUID();

/** A URL-safe random secret of `bytes` random bytes (base64url). */
export function randomSecret(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Two secrets (or their hashes) compared in time that does not depend on where they first differ. */
export function sameSecret(a: string, b: string): boolean {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
