/**
 * WOPI proof keys: an office client signs every call it makes (X-WOPI-Proof with its current key,
 * X-WOPI-ProofOld with its previous one) over the access token, the request URL in upper case and
 * X-WOPI-TimeStamp, each preceded by its length as a 4-byte big-endian integer (the timestamp as an
 * 8-byte big-endian integer). The keys are RSA (PKCS#1 v1.5, SHA-256) published in the client's
 * discovery as modulus and exponent. A call is genuine when the proof verifies with the current key, or
 * the old proof with the current key, or the proof with the old key (so a key rotation on either side
 * does not break open sessions), and its timestamp is at most 20 minutes old.
 */

export interface ProofKey {
  /** Base64 big-endian modulus and exponent, as discovery's <proof-key modulus exponent> carry them. */
  modulus: string;
  exponent: string;
}

export interface ProofKeys {
  current: ProofKey;
  old?: ProofKey;
}

export interface ProofInput {
  accessToken: string;
  url: string;
  /** X-WOPI-TimeStamp: .NET ticks (100 ns since 0001-01-01 UTC), as a decimal string. */
  timestamp: string;
  proof: string | null;
  proofOld: string | null;
}

/** Ticks between 0001-01-01 and the Unix epoch. */
const epochTicks = 621355968000000000n;
export const ticksOf = (ms: number) => BigInt(ms) * 10000n + epochTicks;
export const msOfTicks = (ticks: bigint) => Number((ticks - epochTicks) / 10000n);
export const maxProofAgeMs = 20 * 60 * 1000;

/** The bytes a proof signs. */
export function proofPayload(accessToken: string, url: string, ticks: bigint): Uint8Array {
  const enc = new TextEncoder();
  const token = enc.encode(accessToken);
  const address = enc.encode(url.toUpperCase());
  const out = new Uint8Array(4 + token.length + 4 + address.length + 4 + 8);
  const view = new DataView(out.buffer);
  view.setInt32(0, token.length);
  out.set(token, 4);
  const at = 4 + token.length;
  view.setInt32(at, address.length);
  out.set(address, at + 4);
  const ts = at + 4 + address.length;
  view.setInt32(ts, 8);
  view.setBigInt64(ts + 4, ticks);
  return out;
}

const base64url = (b64: string) => b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const bytesOf = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

const keyCache = new Map<string, Promise<CryptoKey>>();
function importKey(k: ProofKey): Promise<CryptoKey> {
  const id = `${k.modulus}:${k.exponent}`;
  let key = keyCache.get(id);
  if (!key) {
    key = crypto.subtle.importKey(
      "jwk",
      { kty: "RSA", n: base64url(k.modulus), e: base64url(k.exponent), alg: "RS256", ext: true },
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["verify"],
    );
    key.catch(() => keyCache.delete(id));
    keyCache.set(id, key);
  }
  return key;
}

async function verifies(key: ProofKey | undefined, signature: string | null, payload: Uint8Array): Promise<boolean> {
  if (!key || !signature) return false;
  try {
    return await crypto.subtle.verify("RSASSA-PKCS1-v1_5", await importKey(key), bytesOf(signature), payload as BufferSource);
  } catch {
    return false;
  }
}

/** Whether a call carries a valid, fresh proof from the client that published `keys`. */
export async function proofValid(keys: ProofKeys, input: ProofInput, now = Date.now()): Promise<boolean> {
  if (!/^\d{1,20}$/.test(input.timestamp)) return false;
  const ticks = BigInt(input.timestamp);
  if (now - msOfTicks(ticks) > maxProofAgeMs) return false;
  const payload = proofPayload(input.accessToken, input.url, ticks);
  return (
    (await verifies(keys.current, input.proof, payload)) ||
    (await verifies(keys.current, input.proofOld, payload)) ||
    (await verifies(keys.old, input.proof, payload))
  );
}
