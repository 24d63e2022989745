import { describe, expect, it } from "vitest";
import { assertStrongSecret, bearerKey, storageCredentialsKey, urlSigningKey, WeakSecret } from "../../functions/lib/keys";
import { decryptCredentials, encryptCredentials } from "../../functions/lib/storage/secrets";
import { signUrl, verifyUrl } from "../../functions/lib/sign";

/** functions/lib/keys.ts: one key per purpose from JWT_SECRET, and the storage key as it always was. */

const secret = "a-secret-of-more-than-thirty-two-bytes-0123456789";
const message = new TextEncoder().encode("play\nvariant\n1900000000");
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("derived keys", () => {
  it("gives bearers and URL signatures different keys, neither of them the secret itself", async () => {
    const macs = await Promise.all([
      bearerKey(secret).then((k) => crypto.subtle.sign("HMAC", k, message)),
      urlSigningKey(secret).then((k) => crypto.subtle.sign("HMAC", k, message)),
      crypto.subtle
        .importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
        .then((k) => crypto.subtle.sign("HMAC", k, message)),
    ]);
    expect(new Set(macs.map(hex)).size).toBe(3);
  });

  it("keeps the storage key of earlier versions: credentials sealed before still open", async () => {
    // The derivation secrets.ts used before keys.ts existed, verbatim.
    const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
    const old = await crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode("mam storage credentials") },
      base,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"],
    );
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv }, old, new TextEncoder().encode(JSON.stringify({ user: "u", passwd: "p" }))),
    );
    const stored = btoa(String.fromCharCode(...iv, ...sealed));
    expect(await decryptCredentials({ JWT_SECRET: secret }, stored)).toEqual({ user: "u", passwd: "p" });
    expect(
      await decryptCredentials({ JWT_SECRET: secret }, await encryptCredentials({ JWT_SECRET: secret }, { user: "x", passwd: "y" })),
    ).toEqual({ user: "x", passwd: "y" });
    expect((await storageCredentialsKey(secret)).algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
  });

  it("signs URLs with a key another secret does not share", async () => {
    const query = new URLSearchParams(await signUrl(secret, "play", "v1", 1_900_000_000));
    expect(await verifyUrl(secret, "play", "v1", query.get("exp")!, query.get("sig")!)).toBe(true);
    expect(await verifyUrl(`${secret}-rotated`, "play", "v1", query.get("exp")!, query.get("sig")!)).toBe(false);
  });

  it("refuses a secret shorter than 32 bytes, and derives nothing from it", async () => {
    expect(() => assertStrongSecret("short")).toThrow(WeakSecret);
    expect(() => assertStrongSecret(undefined)).toThrow(WeakSecret);
    expect(() => assertStrongSecret("x".repeat(32))).not.toThrow();
    // Bytes, not characters: 16 Cyrillic letters are 32 bytes.
    expect(() => assertStrongSecret("ж".repeat(16))).not.toThrow();
    await expect(urlSigningKey("x".repeat(31))).rejects.toThrow(WeakSecret);
  });
});
