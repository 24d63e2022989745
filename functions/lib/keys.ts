/**
 * Every key the Worker uses comes from JWT_SECRET through HKDF-SHA256, one label per purpose, so a key
 * that leaks from one use (a URL signature, a sealed credential) says nothing about the others, and no
 * MAC made for one purpose verifies for another. docs/decisions/023-sign-in-hardening-and-keys.md.
 */

/** JWT_SECRET shorter than this is refused: the server does not serve until it is fixed. */
export const minSecretBytes = 32;

const labels = {
  /** HS256 bearer tokens (functions/lib/jwt.ts). */
  bearer: "mam bearer tokens",
  /** Signed URLs and the share-link unlock cookie (functions/lib/sign.ts). */
  urls: "mam url signatures",
  /** Storage credentials at rest when STORAGE_KEY is unset; the label predates this module and must not change. */
  storage: "mam storage credentials",
  /** WOPI access tokens handed to office clients (functions/wopi/tokens.ts). */
  wopi: "mam wopi access tokens",
} as const;

export class WeakSecret extends Error {
  constructor(bytes: number) {
    super(`JWT_SECRET is ${bytes} bytes; at least ${minSecretBytes} are required (e.g. openssl rand -base64 32)`);
  }
}

const secretBytes = (secret: string | undefined) => new TextEncoder().encode(secret ?? "");

/** Throws WeakSecret when JWT_SECRET is missing or shorter than 32 bytes. */
export function assertStrongSecret(secret: string | undefined) {
  const bytes = secretBytes(secret).length;
  if (bytes < minSecretBytes) throw new WeakSecret(bytes);
}

type Purpose = keyof typeof labels;
const algorithms: Record<Purpose, HmacImportParams | AesKeyGenParams> = {
  bearer: { name: "HMAC", hash: "SHA-256", length: 256 },
  urls: { name: "HMAC", hash: "SHA-256", length: 256 },
  storage: { name: "AES-GCM", length: 256 },
  wopi: { name: "HMAC", hash: "SHA-256", length: 256 },
};
const usages: Record<Purpose, KeyUsage[]> = {
  bearer: ["sign", "verify"],
  urls: ["sign", "verify"],
  storage: ["encrypt", "decrypt"],
  wopi: ["sign", "verify"],
};

// Derived once per isolate and secret (a rotation brings a new secret, hence new entries).
const cache = new Map<string, Promise<CryptoKey>>();

async function derived(secret: string, purpose: Purpose): Promise<CryptoKey> {
  assertStrongSecret(secret);
  const id = `${purpose}\u0000${secret}`;
  let key = cache.get(id);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", secretBytes(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(labels[purpose]) },
          base,
          algorithms[purpose],
          false,
          usages[purpose],
        ),
      );
    key.catch(() => cache.delete(id));
    cache.set(id, key);
  }
  return key;
}

export const bearerKey = (secret: string) => derived(secret, "bearer");
export const urlSigningKey = (secret: string) => derived(secret, "urls");
export const storageCredentialsKey = (secret: string) => derived(secret, "storage");
export const wopiKey = (secret: string) => derived(secret, "wopi");
