import { inArray } from "drizzle-orm";
import { loginAttempts } from "../../db/schema";
import type { Db } from "../lib/db";
import { failureUpsert } from "../auth/rate-limit";
import { ApiError } from "../lib/errors";

/**
 * Wrong share-link passwords, counted like failed sign-ins (functions/auth/rate-limit.ts) and in the same
 * table, under their own key prefixes, so the cron's cleanup of lapsed windows covers them too.
 * Per link: guessing one link's password from many addresses; per address: one client trying many links.
 */
export const unlockLimits = {
  link: { max: 10, windowSeconds: 15 * 60 },
  ip: { max: 30, windowSeconds: 15 * 60 },
} as const;

const keysOf = (linkId: string, ip: string) => ({ link: `sl-link:${linkId}`, ip: `sl-ip:${ip}` });

/** 429 with Retry-After while either window is full; checked before the (expensive) hash is computed. */
export async function assertUnlockAllowed(db: Db, linkId: string, ip: string, now: number) {
  const keys = keysOf(linkId, ip);
  const rows = await db.select().from(loginAttempts).where(inArray(loginAttempts.key, [keys.link, keys.ip]));
  for (const row of rows) {
    const limit = row.key === keys.link ? unlockLimits.link : unlockLimits.ip;
    if (row.windowEnds > now && row.failures >= limit.max) {
      throw new ApiError("rate_limited", "Слишком много неверных паролей. Повторите позже.", undefined, { "Retry-After": String(row.windowEnds - now) });
    }
  }
}

/** One failure on both keys: atomic upserts; a lapsed window starts again at 1. */
export function unlockFailureUpserts(db: Db, linkId: string, ip: string, now: number) {
  const keys = keysOf(linkId, ip);
  return (["link", "ip"] as const).map((kind) => failureUpsert(db, keys[kind], unlockLimits[kind].windowSeconds, now));
}
