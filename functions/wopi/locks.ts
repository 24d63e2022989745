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

export const lockConflict = (current: string, reason: string) =>
  new ApiError("conflict", `Файл заблокирован: ${reason}`, undefined, { "X-WOPI-Lock": current, "X-WOPI-LockFailureReason": reason });

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
  if (cur && cur.lockId !== lockId) throw lockConflict(cur.lockId, "заблокирован другим замком");
  await setLock(db, assetId, lockId, userId);
}

/** LOCK with X-WOPI-OldLock (UnlockAndRelock): replaces the lock only when it is `oldLock`. */
export async function relock(db: Db, assetId: string, lockId: string, oldLock: string, userId: string) {
  const cur = await currentLock(db, assetId);
  if (!cur) throw lockConflict("", "файл не заблокирован");
  if (cur.lockId !== oldLock) throw lockConflict(cur.lockId, "старый замок не совпадает");
  await setLock(db, assetId, lockId, userId);
}

/** REFRESH_LOCK: another 30 minutes for the same lock. */
export async function refreshLock(db: Db, assetId: string, lockId: string, userId: string) {
  const cur = await currentLock(db, assetId);
  if (!cur) throw lockConflict("", "файл не заблокирован");
  if (cur.lockId !== lockId) throw lockConflict(cur.lockId, "замок не совпадает");
  await setLock(db, assetId, lockId, userId);
}

export async function unlock(db: Db, assetId: string, lockId: string) {
  const cur = await currentLock(db, assetId);
  if (!cur) throw lockConflict("", "файл не заблокирован");
  if (cur.lockId !== lockId) throw lockConflict(cur.lockId, "замок не совпадает");
  await db.delete(wopiLocks).where(eq(wopiLocks.assetId, assetId));
}

/**
 * A write to a file (PutFile, RENAME_FILE, an overwrite by PUT_RELATIVE): a locked file needs its lock;
 * an unlocked one may be written only when it is empty (`emptyOk`), as a new document's first save.
 */
export async function requireWritable(db: Db, assetId: string, lockId: string | undefined, emptyOk: boolean | "any") {
  const cur = await currentLock(db, assetId);
  if (cur) {
    if (cur.lockId !== lockId) throw lockConflict(cur.lockId, lockId ? "замок не совпадает" : "нет X-WOPI-Lock");
    return;
  }
  if (emptyOk === false) throw lockConflict("", "файл не заблокирован и не пуст");
}

export const sweepWopiLocks = (db: Db) => db.delete(wopiLocks).where(lt(wopiLocks.expiresAt, nowSeconds()));
