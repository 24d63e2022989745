import { and, eq, gt, lt } from "drizzle-orm";
import { wopiLocks, type WopiLock } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";

/**
 * WOPI locks, as the protocol states them: one lock per file, an opaque id up to 1,024 characters, 30
 * minutes after the last LOCK or REFRESH_LOCK. A mismatch answers 409 with the current lock in X-WOPI-Lock
 * (empty when there is none) and the reason in X-WOPI-LockFailureReason.
 */

export const lockTtlSeconds = 30 * 60;
export const maxLockLength = 1024;

/** The live lock on a file, if any (an expired row is no lock). */
export const currentLock = (db: Db, assetId: string): Promise<WopiLock | undefined> =>
  db
    .select()
    .from(wopiLocks)
    .where(and(eq(wopiLocks.assetId, assetId), gt(wopiLocks.expiresAt, nowSeconds())))
    .get();

/** Why a call met a lock: the header in English (header values are ASCII), the message in Russian. */
const reasons = {
  locked: ["Locked by another lock", "файл заблокирован другим замком"],
  unlocked: ["File not locked", "unlocked"],
  oldMismatch: ["Old lock mismatch", "oldMismatch"],
  mismatch: ["Lock mismatch", "mismatch"],
  missing: ["No X-WOPI-Lock", "нет X-WOPI-Lock"],
  notEmpty: ["File not locked and not empty", "notEmpty"],
  target: ["Target file locked", "файл назначения заблокирован"],
} as const;

export const lockConflict = (current: string, reason: keyof typeof reasons) =>
  new ApiError("conflict", `Конфликт замка: ${reasons[reason][1]}`, undefined, {
    "X-WOPI-Lock": current,
    "X-WOPI-LockFailureReason": reasons[reason][0],
  });

/** The X-WOPI-Lock a call must carry: present, at most 1,024 characters. */
export function lockHeader(value: string | undefined, name = "X-WOPI-Lock"): string {
  if (!value) throw new ApiError("bad_request", `Нет заголовка ${name}`);
  if (value.length > maxLockLength) throw new ApiError("bad_request", `${name} длиннее ${maxLockLength} символов`);
  return value;
}

const setLock = (db: Db, assetId: string, lockId: string, userId: string) => {
  const expiresAt = nowSeconds() + lockTtlSeconds;
  return db
    .insert(wopiLocks)
    .values({ assetId, lockId, userId, expiresAt })
    .onConflictDoUpdate({ target: wopiLocks.assetId, set: { lockId, userId, expiresAt } });
};

/** LOCK: takes the file, or refreshes the caller's own lock when the id is the same. */
export async function lock(db: Db, assetId: string, lockId: string, userId: string) {
  const cur = await currentLock(db, assetId);
  if (cur && cur.lockId !== lockId) throw lockConflict(cur.lockId, "locked");
  await setLock(db, assetId, lockId, userId);
}

/** LOCK with X-WOPI-OldLock (UnlockAndRelock): replaces the lock only when it is `oldLock`. */
export async function relock(db: Db, assetId: string, lockId: string, oldLock: string, userId: string) {
  const cur = await currentLock(db, assetId);
  if (!cur) throw lockConflict("", "unlocked");
  if (cur.lockId !== oldLock) throw lockConflict(cur.lockId, "oldMismatch");
  await setLock(db, assetId, lockId, userId);
}

/** REFRESH_LOCK: another 30 minutes for the same lock. */
export async function refreshLock(db: Db, assetId: string, lockId: string, userId: string) {
  const cur = await currentLock(db, assetId);
  if (!cur) throw lockConflict("", "unlocked");
  if (cur.lockId !== lockId) throw lockConflict(cur.lockId, "mismatch");
  await setLock(db, assetId, lockId, userId);
}

export async function unlock(db: Db, assetId: string, lockId: string) {
  const cur = await currentLock(db, assetId);
  if (!cur) throw lockConflict("", "unlocked");
  if (cur.lockId !== lockId) throw lockConflict(cur.lockId, "mismatch");
  await db.delete(wopiLocks).where(eq(wopiLocks.assetId, assetId));
}

/**
 * A write to a file (PutFile, RENAME_FILE, an overwrite by PUT_RELATIVE): a locked file needs its lock;
 * an unlocked one may be written only when it is empty (`emptyOk`), as a new document's first save.
 */
export async function requireWritable(db: Db, assetId: string, lockId: string | undefined, emptyOk: boolean | "any") {
  const cur = await currentLock(db, assetId);
  if (cur) {
    if (cur.lockId !== lockId) throw lockConflict(cur.lockId, lockId ? "mismatch" : "missing");
    return;
  }
  if (emptyOk === false) throw lockConflict("", "notEmpty");
}

export const sweepWopiLocks = (db: Db) => db.delete(wopiLocks).where(lt(wopiLocks.expiresAt, nowSeconds()));
