import { eq, sql } from "drizzle-orm";
import { loginAttempts } from "../../db/schema";
import { addressKey } from "../lib/address";
import { countAttempt, giveBack, throttled, withinLimit } from "../lib/attempts";
import type { Db } from "../lib/db";

/**
 * Sign-in throttling (docs/decisions/023-sign-in-hardening-and-keys.md). Every attempt is counted before
 * the password is checked, in one batch, so parallel requests cannot all slip past a check.
 * - Per login, a progressive delay: the first `freeFailures` wrong passwords in a row cost nothing; after
 *   that each attempt must come 2^(failures−2) s after the last failure (8, 16, 32 …, `maxDelaySeconds`
 *   at most). A stranger can make the owner wait a minute, not lock them out for a quarter of an hour.
 * - Per address (an IPv6 /64 as one address): `address.max` attempts per window. This is the limit that
 *   stops a guessing client; past it, its attempts no longer touch the login's counter either.
 * A success clears the login's counter and gives the address its attempt back.
 */
export const loginThrottle = {
  freeFailures: 5,
  maxDelaySeconds: 60,
  /** A login's failures are forgotten this long after the last one. */
  memorySeconds: 15 * 60,
  address: { max: 30, windowSeconds: 15 * 60 },
} as const;

const message = "Слишком много неудачных попыток входа. Повторите позже.";

export const throttleKeys = (login: string, ip: string) => ({
  login: `login:${login.toLowerCase()}`,
  ip: `ip:${addressKey(ip)}`,
});
export type ThrottleKeys = ReturnType<typeof throttleKeys>;

/** The wait after `failures` wrong passwords in a row (0 while they are free). */
export const delayAfter = (failures: number) =>
  failures < loginThrottle.freeFailures ? 0 : Math.min(loginThrottle.maxDelaySeconds, 2 ** Math.min(failures - 2, 16));

/**
 * The login row stores `failures` in a row and `window_ends` = last failure + memorySeconds, so the last
 * failure's time, and with it the end of the wait, follows from the row. The same rule in SQL:
 */
const waiting = (now: number) => {
  const { freeFailures: free, maxDelaySeconds: cap, memorySeconds: memory } = loginThrottle;
  return sql`(${loginAttempts.failures} >= ${free} AND ${now} < ${loginAttempts.windowEnds} - ${memory} + min(${cap}, 1 << min(${loginAttempts.failures} - 2, 16)))`;
};

/** One attempt on the login: counted only while the address is within its limit and no wait is running. */
function countLoginAttempt(db: Db, keys: ThrottleKeys, now: number) {
  const addressOk = withinLimit(keys.ip, loginThrottle.address.max);
  const remembered = now + loginThrottle.memorySeconds;
  return db
    .insert(loginAttempts)
    .select(sql`SELECT ${keys.login}, 1, ${remembered} WHERE ${addressOk}`)
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`CASE WHEN ${loginAttempts.windowEnds} <= ${now} THEN 1 ELSE ${loginAttempts.failures} + 1 END`,
        windowEnds: sql`${remembered}`,
      },
      setWhere: sql`${addressOk} AND NOT ${waiting(now)}`,
    })
    .returning({ failures: loginAttempts.failures });
}

/**
 * Counts this attempt on the address and the login (one batch, one transaction) and throws 429 with
 * Retry-After when the address is past its limit or the login's wait is still running.
 */
export async function admitAttempt(db: Db, keys: ThrottleKeys, now: number) {
  const [[address], counted, [login]] = await db.batch([
    countAttempt(db, keys.ip, loginThrottle.address, now),
    countLoginAttempt(db, keys, now),
    db.select().from(loginAttempts).where(eq(loginAttempts.key, keys.login)),
  ]);
  if (address.failures > loginThrottle.address.max) throw throttled(message, address.windowEnds - now);
  if (counted.length === 0) {
    const lastFailure = (login?.windowEnds ?? now) - loginThrottle.memorySeconds;
    throw throttled(message, lastFailure + delayAfter(login?.failures ?? 0) - now);
  }
}

/** What a successful sign-in writes with its session: the login starts afresh, the address gets its attempt back. */
export const successWrites = (db: Db, keys: ThrottleKeys) => [
  db.delete(loginAttempts).where(eq(loginAttempts.key, keys.login)),
  giveBack(db, keys.ip),
];
