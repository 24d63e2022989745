import { scrypt, timingSafeEqual } from "node:crypto";

/**
 * scrypt at OWASP's 16 MiB setting (N=2^14, r=8, p=5): memory-hard, native in workerd through
 * nodejs_compat, and well inside a Worker's 128 MB. docs/decisions/002-password-hashing.md.
 * Stored as `scrypt$N$r$p$salt$hash` (base64): a hash is verified with the cost it was made with, so the
 * cost can be raised later per hash (and test fixtures store cheap ones, docs/decisions/030-test-infrastructure.md).
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
export const passwordCost: ScryptCost = { N: 2 ** 14, r: 8, p: 5 };
const keyLength = 32;
const maxmem = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, p: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, keyLength, { ...p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Every hash the application stores uses `passwordCost`; only test fixtures pass a lower one. */
export async function hashPassword(password: string, cost: ScryptCost = passwordCost): Promise<string> {
  const salt = Buffer.from(crypto.getRandomValues(new Uint8Array(16)));
  const hash = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password, verified against when the login does not exist, so both take as long. */
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () => (decoyHash ??= hashPassword(crypto.randomUUID()));
