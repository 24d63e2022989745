import { inArray, sql } from "drizzle-orm";
import { loginAttempts } from "../../db/schema";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";

/**
 * Failed sign-ins allowed per window: per login (guessing one account's password) and per
 * address (spraying many accounts). A success clears the login's counter, not the address's.
 */
export const loginLimits = {
  login: { max: 5, windowSeconds: 15 * 60 },
  ip: { max: 30, windowSeconds: 15 * 60 },
} as const;

export const throttleKeys = (login: string, ip: string) => ({
  login: `login:${login.toLowerCase()}`,
  ip: `ip:${ip}`,
});

export async function assertNotThrottled(db: Db, keys: ReturnType<typeof throttleKeys>, now: number) {
  const rows = await db
    .select()
    .from(loginAttempts)
    .where(inArray(loginAttempts.key, [keys.login, keys.ip]))
    .all();
  for (const row of rows) {
    const limit = row.key === keys.login ? loginLimits.login : loginLimits.ip;
    if (row.windowEnds > now && row.failures >= limit.max) {
      const retryAfter = String(row.windowEnds - now);
      throw new ApiError("rate_limited", "Слишком много неудачных попыток входа. Повторите позже.", undefined, {
        "Retry-After": retryAfter,
      });
    }
  }
}

/** Counts one failure for each key; a lapsed window starts again at 1. Atomic upserts, one batch. */
export function failureUpserts(db: Db, keys: ReturnType<typeof throttleKeys>, now: number) {
  return (["login", "ip"] as const).map((kind) => failureUpsert(db, keys[kind], loginLimits[kind].windowSeconds, now));
}

/** One failure under `key` in login_attempts (sign-ins and share-link passwords alike): an atomic upsert. */
export function failureUpsert(db: Db, key: string, windowSeconds: number, now: number) {
  const windowEnds = now + windowSeconds;
  return db
    .insert(loginAttempts)
    .values({ key, failures: 1, windowEnds })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`CASE WHEN ${loginAttempts.windowEnds} <= ${now} THEN 1 ELSE ${loginAttempts.failures} + 1 END`,
        windowEnds: sql`CASE WHEN ${loginAttempts.windowEnds} <= ${now} THEN ${windowEnds} ELSE ${loginAttempts.windowEnds} END`,
      },
    });
}
