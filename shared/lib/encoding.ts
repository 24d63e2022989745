/**
 * Bytes as text and back: hex (signatures, hashes), base64 (sealed credentials, nonces) and base64url
 * (secrets in URLs, PKCE, JWT payloads). No imports: the Worker and the browser both use it.
 */

type Bytes = ArrayBuffer | Uint8Array;
const view = (bytes: Bytes) => (bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));

export const toHex = (bytes: Bytes) => [...view(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Lower- or upper-case hex of an even length; anything else is the caller's to reject first. */
export const fromHex = (hex: string) => new Uint8Array((hex.match(/../g) ?? []).map((h) => parseInt(h, 16)));

export function toBase64(bytes: Bytes): string {
  let bin = "";
  // One character at a time: spreading a large array into fromCharCode overflows the stack.
  for (const b of view(bytes)) bin += String.fromCharCode(b);
  return btoa(bin);
}

export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export const toBase64Url = (bytes: Bytes) => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const fromBase64Url = (text: string) => fromBase64(text.replace(/-/g, "+").replace(/_/g, "/"));
