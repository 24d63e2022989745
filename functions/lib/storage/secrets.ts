import { fromBase64, toBase64 } from "../../../shared/lib/encoding";
import { storageCredentialsKey } from "../keys";

/**
 * Storage credentials at rest: AES-256-GCM with a key from the environment (STORAGE_KEY, 32 bytes
 * base64), or, when it is unset, the storage key derived from JWT_SECRET (functions/lib/keys.ts, the
 * same HKDF label as ever) so a fresh local start works. docs/decisions/008-storages.md.
 */
export interface StorageCredentials {
  user: string;
  passwd: string;
  token?: string;
}

const imported = new Map<string, Promise<CryptoKey>>();

function keyFor(env: { STORAGE_KEY?: string; JWT_SECRET: string }): Promise<CryptoKey> {
  if (!env.STORAGE_KEY) return storageCredentialsKey(env.JWT_SECRET);
  let key = imported.get(env.STORAGE_KEY);
  if (!key) {
    key = crypto.subtle.importKey("raw", fromBase64(env.STORAGE_KEY), "AES-GCM", false, ["encrypt", "decrypt"]);
    imported.set(env.STORAGE_KEY, key);
  }
  return key;
}

export async function encryptCredentials(env: { STORAGE_KEY?: string; JWT_SECRET: string }, creds: StorageCredentials) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(JSON.stringify(creds));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyFor(env), data));
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return toBase64(out);
}

export async function decryptCredentials(env: { STORAGE_KEY?: string; JWT_SECRET: string }, sealed: string): Promise<StorageCredentials> {
  const bytes = fromBase64(sealed);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await keyFor(env), bytes.slice(12));
  return JSON.parse(new TextDecoder().decode(plain)) as StorageCredentials;
}
