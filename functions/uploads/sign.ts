/**
 * Short-lived URL signatures (HMAC-SHA256 over purpose, subject and expiry) for the two things a
 * browser fetches without headers: Worker-path part PUTs and play links. Keyed from JWT_SECRET.
 */
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string) {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(`url-signing:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function signUrl(secret: string, purpose: string, subject: string, expires: number) {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(`${purpose}\n${subject}\n${expires}`));
  return `exp=${expires}&sig=${hex(mac)}`;
}

export async function verifyUrl(secret: string, purpose: string, subject: string, exp: string | undefined, sig: string | undefined) {
  const expires = Number(exp);
  if (!sig || !/^[0-9a-f]{64}$/.test(sig) || !Number.isInteger(expires) || expires < Date.now() / 1000) return false;
  const bytes = new Uint8Array(sig.match(/../g)!.map((h) => parseInt(h, 16)));
  return crypto.subtle.verify("HMAC", await hmacKey(secret), bytes, new TextEncoder().encode(`${purpose}\n${subject}\n${expires}`));
}
