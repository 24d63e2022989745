import { and, eq, sql } from "drizzle-orm";
import { groups, users } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext } from "../lib/access";
import { groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";

/** The caller's own interface settings and bookmarks. */

export async function getUiSettings(db: Db, auth: AuthUser) {
  const row = await db.select({ s: users.uiSettings }).from(users).where(eq(users.userId, auth.userId)).get();
  return row?.s ?? {};
}

/** Shallow merge; a key set to null is removed. */
export async function patchUiSettings(db: Db, auth: AuthUser, patch: Record<string, unknown>) {
  const next: Record<string, unknown> = { ...(await getUiSettings(db, auth)), ...patch };
  for (const [k, v] of Object.entries(next)) if (v === null) delete next[k];
  if (JSON.stringify(next).length > 64 * 1024) {
    throw new ApiError("payload_too_large", "Настройки интерфейса не должны превышать 64 КБ");
  }
  await db.batch([
    db.update(users).set({ uiSettings: next, mtime: nowSeconds() }).where(eq(users.userId, auth.userId)),
    eventInsert(db, { kind: "user.ui_settings", userId: auth.userId, entityType: "user", entityId: auth.userId }),
  ]);
  return next;
}

/** Bookmarked groups the caller can still read, in the stored order; the rest are kept but not shown. */
export async function getBookmarks(db: Db, auth: AuthUser) {
  const row = await db.select({ b: users.bookmarks }).from(users).where(eq(users.userId, auth.userId)).get();
  const ids = (row?.b ?? []).filter((x): x is string => typeof x === "string");
  if (ids.length === 0) return [];
  const ctx = await accessContext(db, auth);
  const rows = await db
    .select({ group_id: groups.groupId, group_name: groups.groupName })
    .from(groups)
    .where(and(sql`${groups.groupId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`, groupFilter(ctx, groups)))
    .all();
  const byId = new Map(rows.map((r) => [r.group_id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function setBookmarks(db: Db, auth: AuthUser, ids: string[]) {
  await db.batch([
    db
      .update(users)
      .set({ bookmarks: [...new Set(ids)], mtime: nowSeconds() })
      .where(eq(users.userId, auth.userId)),
    eventInsert(db, { kind: "user.bookmarks", userId: auth.userId, entityType: "user", entityId: auth.userId }),
  ]);
  return getBookmarks(db, auth);
}
