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

/**
 * The stored settings with `patch` merged in, as SQL: the keys of the patch replace the stored ones whole (a
 * shallow merge), a key set to null is removed. json_each hands objects and arrays over as text and booleans as
 * 0/1, so each value is turned back into JSON by its type.
 */
const mergedSettings = (patch: string) => sql`(SELECT json_group_object(key, CASE type WHEN 'true' THEN json('true')
    WHEN 'false' THEN json('false') WHEN 'null' THEN json('null') WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    ELSE value END)
  FROM (SELECT key, value, type FROM json_each(${users.uiSettings}) WHERE key NOT IN (SELECT key FROM json_each(${patch}))
    UNION ALL SELECT key, value, type FROM json_each(${patch}) WHERE type != 'null'))`;

/**
 * Shallow merge; a key set to null is removed. The merge is done by the UPDATE itself, so two tabs saving
 * different keys at once both keep theirs (a read, merge and write here would let the later write undo the
 * earlier one).
 */
export async function patchUiSettings(db: Db, auth: AuthUser, patch: Record<string, unknown>) {
  const next: Record<string, unknown> = { ...(await getUiSettings(db, auth)), ...patch };
  for (const [k, v] of Object.entries(next)) if (v === null) delete next[k];
  if (JSON.stringify(next).length > 64 * 1024) {
    throw new ApiError("payload_too_large", "Настройки интерфейса не должны превышать 64 КБ");
  }
  const [saved] = await db.batch([
    db
      .update(users)
      .set({ uiSettings: mergedSettings(JSON.stringify(patch)), mtime: nowSeconds() })
      .where(eq(users.userId, auth.userId))
      .returning({ s: users.uiSettings }),
    eventInsert(db, { kind: "user.ui_settings", userId: auth.userId, entityType: "user", entityId: auth.userId }),
  ]);
  return saved[0]?.s ?? next;
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
