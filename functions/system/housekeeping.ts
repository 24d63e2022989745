import { lt, or, isNotNull, and } from "drizzle-orm";
import { loginAttempts, sessions } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { cleanupUploads } from "../uploads/complete";
import { pruneEvents } from "../events/retention";
import { sweepLocks } from "../dav/locks";
import { sweepWopiLocks } from "../wopi/locks";
import { rescoreFrequentTerms } from "../search/frequent";
import { flushSearchIndex } from "../search/indexer";
import { embedderFrom } from "../search/vector";
import { maintainVectorLists } from "../search/vector-lists";
import { automationsCron } from "../udwf/dispatch";

/** Revoked sessions are kept this long for the audit trail before they are deleted. */
const keepEndedSessionsSeconds = 7 * 24 * 3600;

/**
 * The cron's work: drop expired sign-ins, lapsed throttle windows, abandoned uploads, expired WebDAV locks and events
 * past retention; index what changes left for search (a bulk change, or one made over WebDAV, with no search since).
 */
export async function housekeeping(env: Env) {
  const db = getDb(env);
  const now = nowSeconds();
  const cutoff = now - keepEndedSessionsSeconds;
  await db.batch([
    db.delete(sessions).where(or(lt(sessions.expiresAt, cutoff), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, cutoff)))),
    db.delete(loginAttempts).where(lt(loginAttempts.windowEnds, now)),
    // Expired WebDAV locks are already ignored by every check; this only keeps the table small.
    sweepLocks(db),
    sweepWopiLocks(db),
  ]);
  await cleanupUploads(env, db);
  await pruneEvents(db, env, now);
  await flushSearchIndex(db, 5000, embedderFrom(env));
  await rescoreFrequentTerms(db, now);
  await maintainVectorLists(db, embedderFrom(env));
  await automationsCron(env);
}
