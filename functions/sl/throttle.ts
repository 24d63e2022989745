import { addressKey } from "../lib/address";
import { countAttempt, giveBack, throttled, withinLimit } from "../lib/attempts";
import type { Db } from "../lib/db";

/**
 * Share-link passwords, throttled like sign-ins (functions/auth/rate-limit.ts) and in the same table under
 * their own key prefixes, so the cron's cleanup of lapsed windows covers them too. Per link: guessing one
 * link's password from many addresses; per address (an IPv6 /64 as one): one client trying many links.
 * Each attempt is counted before the password is hashed, atomically; a right one gives its count back.
 */
export const unlockLimits = {
  link: { max: 10, windowSeconds: 15 * 60 },
  ip: { max: 30, windowSeconds: 15 * 60 },
} as const;

const message = "Слишком много неверных паролей. Повторите позже.";

const keysOf = (linkId: string, ip: string) => ({ link: `sl-link:${linkId}`, ip: `sl-ip:${addressKey(ip)}` });

/**
 * Counts this attempt on the address and, while the address is within its limit, on the link; 429 with
 * Retry-After when either is past its limit. A client stopped by its address no longer adds to the link's
 * count, so it cannot keep the link's other recipients out.
 */
export async function admitUnlockAttempt(db: Db, linkId: string, ip: string, now: number) {
  const keys = keysOf(linkId, ip);
  const [[address], [link]] = await db.batch([
    countAttempt(db, keys.ip, unlockLimits.ip, now),
    countAttempt(db, keys.link, unlockLimits.link, now, withinLimit(keys.ip, unlockLimits.ip.max)),
  ]);
  if (address.failures > unlockLimits.ip.max) throw throttled(message, address.windowEnds - now);
  // The address was within its limit, so the link's attempt was counted and its row returned.
  if (link.failures > unlockLimits.link.max) throw throttled(message, link.windowEnds - now);
}

/** A right password: both counts are given back, so only wrong ones add up. */
export const unlockSuccessWrites = (db: Db, linkId: string, ip: string) => {
  const keys = keysOf(linkId, ip);
  return [giveBack(db, keys.link), giveBack(db, keys.ip)] as const;
};
