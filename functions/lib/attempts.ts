import { sql, type SQL } from "drizzle-orm";
import { loginAttempts } from "../../db/schema";
import type { Db } from "./db";
import { ApiError } from "./errors";

/**
 * Counters of attempts in login_attempts (sign-ins, share-link passwords), counted *before* the secret
 * is checked: each statement increments atomically and returns the new count, so the caller decides
 * on a number no parallel request can have read before it. An attempt that turns out right gives its
 * count back (`giveBack`), so in the end only failures stay counted.
 */

export interface Limit {
  max: number;
  windowSeconds: number;
}

/** The row's count, or (through a sub-select) NULL when there is none: for gating another statement. */
export const countOf = (key: string) => sql`(SELECT a.failures FROM login_attempts AS a WHERE a.key = ${key})`;

/** `countOf(key)` still within `max` (a missing row is within). */
export const withinLimit = (key: string, max: number) => sql`coalesce(${countOf(key)}, 0) <= ${max}`;

/**
 * One attempt (or `by` of them at once) under `key` in a fixed window that starts with the first attempt; a lapsed
 * window starts again at `by`. Returns [{ failures, windowEnds }] — or [] when `onlyIf` is false, and then counts nothing.
 */
export function countAttempt(db: Db, key: string, limit: Limit, now: number, onlyIf: SQL = sql`1`, by = 1) {
  const windowEnds = now + limit.windowSeconds;
  const n = Math.max(1, Math.trunc(by));
  return db
    .insert(loginAttempts)
    .select(sql`SELECT ${key}, ${n}, ${windowEnds} WHERE ${onlyIf}`)
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`CASE WHEN ${loginAttempts.windowEnds} <= ${now} THEN ${n} ELSE ${loginAttempts.failures} + ${n} END`,
        windowEnds: sql`CASE WHEN ${loginAttempts.windowEnds} <= ${now} THEN ${windowEnds} ELSE ${loginAttempts.windowEnds} END`,
      },
      setWhere: onlyIf,
    })
    .returning({ failures: loginAttempts.failures, windowEnds: loginAttempts.windowEnds });
}

/** An attempt that was right: its count is taken back, so it never adds up to a limit. */
export const giveBack = (db: Db, key: string) =>
  db
    .update(loginAttempts)
    .set({ failures: sql`max(${loginAttempts.failures} - 1, 0)` })
    .where(sql`${loginAttempts.key} = ${key}`);

/** The 429 every throttle answers: the message is the caller's, Retry-After at least one second. */
export const throttled = (message: string, retryAfterSeconds: number) =>
  new ApiError("rate_limited", message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
