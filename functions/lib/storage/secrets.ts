/**
 * Storage credentials at rest: AES-256-GCM with a key from the environment (STORAGE_KEY, 32 bytes
 * base64), or, when it is unset, one derived by HKDF from JWT_SECRET so a fresh local start works.
 * docs/decisions/008-storages.md.
 */
export interface StorageCredentials {
  user: string;
  passwd: string;
  token?: string;
}

const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(env: { STORAGE_KEY?: string; JWT_SECRET: string }): Promise<CryptoKey> {
  const material = env.STORAGE_KEY ? `k:${env.STORAGE_KEY}` : `j:${env.JWT_SECRET}`;
  let key = keys.get(material);
  if (!key) {
    key = env.STORAGE_KEY
      ? crypto.subtle.importKey("raw", Uint8Array.from(atob(env.STORAGE_KEY), (c) => c.charCodeAt(0)), "AES-GCM", false, ["encrypt", "decrypt"])
      : crypto.subtle
          .importKey("raw", new TextEncoder().encode(env.JWT_SECRET), "HKDF", false, ["deriveKey"])
          .then((base) =>
            crypto.subtle.deriveKey(
              { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode("mam storage credentials") },
              base,
              { name: "AES-GCM", length: 256 },
              false,
              ["encrypt", "decrypt"],
            ),
          );
    keys.set(material, key);
  }
  return key;
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export async function encryptCredentials(env: { STORAGE_KEY?: string; JWT_SECRET: string }, creds: StorageCredentials) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(JSON.stringify(creds));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyFor(env), data));
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return b64(out);
}

export async function decryptCredentials(env: { STORAGE_KEY?: string; JWT_SECRET: string }, sealed: string): Promise<StorageCredentials> {
  const bytes = Uint8Array.from(atob(sealed), (c) => c.charCodeAt(0));
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await keyFor(env), bytes.slice(12));
  return JSON.parse(new TextDecoder().decode(plain)) as StorageCredentials;
}
