import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { entityTags, tags } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { idList, clashOnUnique } from "../lib/sql";
import { nameKey, prefixEnd, tidyName } from "./name-key";
import type { TagFilterBody } from "../../shared/tags/schemas";

/** The tag vocabulary: listing, search and its changes (docs/decisions/032-tags-and-taxonomy.md). */

const tagColumns = { tag_id: tags.tagId, tag_name: tags.tagName };
export const tagNotFound = () => new ApiError("not_found", "Тег не найден");

export function listTags(db: Db, skip: number, take: number) {
  return db.select(tagColumns).from(tags).orderBy(asc(tags.nameKey)).limit(take).offset(skip).all();
}

/** The tags among `ids` that exist, in the order asked. */
export async function tagsByIds(db: Db, ids: string[]) {
  const rows = await db
    .select(tagColumns)
    .from(tags)
    .where(inArray(tags.tagId, idList(ids)))
    .all();
  const byId = new Map(rows.map((r) => [r.tag_id, r]));
  return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
}

/**
 * Tags whose name starts with `q` (one range of the unique name_key index), then those that contain
 * it elsewhere (a scan of that index), each part by name: what an autocomplete wants first comes first.
 * `skip`/`take` page through both parts as one list.
 */
export async function searchTags(db: Db, { q, skip, take }: TagFilterBody) {
  const key = nameKey(q);
  const startsWith = and(gte(tags.nameKey, key), lt(tags.nameKey, prefixEnd(key)));
  const page = await db.select(tagColumns).from(tags).where(startsWith).orderBy(asc(tags.nameKey)).limit(take).offset(skip).all();
  if (page.length === take) return page;
  // The prefix part ended on this page (or before it): how many it has decides where the other part starts.
  const prefixCount =
    page.length > 0 || skip === 0
      ? skip + page.length
      : ((await db.select({ n: sql<number>`count(*)` }).from(tags).where(startsWith).get())?.n ?? 0);
  const inside = await db
    .select(tagColumns)
    .from(tags)
    .where(sql`instr(${tags.nameKey}, ${key}) > 1`)
    .orderBy(asc(tags.nameKey))
    .limit(take - page.length)
    .offset(Math.max(0, skip - prefixCount))
    .all();
  return [...page, ...inside];
}

const taken = (name: string) =>
  new ApiError("conflict", `Тег «${name}» уже есть (имена тегов не различают регистр и «ё»/«е»)`, [
    { field: "tag_name", message: "имя занято" },
  ]);

/** A racing writer can still hit the unique index between check and batch: the same 409 then. */
const uniqueName = <T>(name: string, run: () => Promise<T>): Promise<T> => clashOnUnique(run, () => taken(name), "tags");

async function assertNameFree(db: Db, key: string, exceptId?: string) {
  const clash = await db.select(tagColumns).from(tags).where(eq(tags.nameKey, key)).get();
  if (clash && clash.tag_id !== exceptId) throw taken(clash.tag_name);
}

export async function createTag(db: Db, auth: AuthUser, rawName: string) {
  const name = tidyName(rawName);
  const key = nameKey(name);
  await assertNameFree(db, key);
  const now = nowSeconds();
  const row = { tagId: newId(), tagName: name, nameKey: key, creator: auth.userId, ctime: now, mtime: now };
  await uniqueName(name, () =>
    db.batch([
      db.insert(tags).values(row),
      eventInsert(db, { kind: "tag.create", userId: auth.userId, entityType: "tag", entityId: row.tagId, data: { name } }),
    ]),
  );
  return { tag_id: row.tagId };
}

export async function renameTag(db: Db, auth: AuthUser, id: string, rawName: string) {
  const current = await db.select(tagColumns).from(tags).where(eq(tags.tagId, id)).get();
  if (!current) throw tagNotFound();
  const name = tidyName(rawName);
  const key = nameKey(name);
  await assertNameFree(db, key, id);
  await uniqueName(name, () =>
    db.batch([
      db.update(tags).set({ tagName: name, nameKey: key, mtime: nowSeconds() }).where(eq(tags.tagId, id)),
      eventInsert(db, { kind: "tag.update", userId: auth.userId, entityType: "tag", entityId: id, data: { from: current.tag_name, name } }),
    ]),
  );
  return { tag_id: id, tag_name: name };
}

/** The tag goes from every asset and group that carried it, in the same batch. */
export async function deleteTag(db: Db, auth: AuthUser, id: string) {
  const current = await db.select(tagColumns).from(tags).where(eq(tags.tagId, id)).get();
  if (!current) throw tagNotFound();
  await db.batch([
    db.delete(tags).where(eq(tags.tagId, id)),
    db.delete(entityTags).where(eq(entityTags.tagId, id)),
    eventInsert(db, { kind: "tag.delete", userId: auth.userId, entityType: "tag", entityId: id, data: { name: current.tag_name } }),
  ]);
  return { ok: true as const };
}
