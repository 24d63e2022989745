import { inArray, sql, type SQL } from "drizzle-orm";
import { tags } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAccess, VIRTUAL_ROOT_ID } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { causeData } from "../lib/events";
import { newId } from "../lib/ids";
import { idList, literal } from "../lib/sql";
import type { TagLinkBody } from "../../shared/tags/schemas";

/**
 * Bulk attach and detach (POST /api/tags/attach, /detach): `update` on every object, every tag must
 * exist, then one batch — all or nothing. Both are idempotent: a pair already there (or already gone)
 * changes nothing, and only objects whose tags really changed get a tag.attach / tag.detach event.
 */

const bad = (field: string, message: string) => new ApiError("validation", `Неверные данные: «${field}»: ${message}`, [{ field, message }]);

async function checked(db: Db, auth: AuthUser, body: TagLinkBody) {
  const root = body.entities.findIndex((e) => e.id === VIRTUAL_ROOT_ID);
  if (root >= 0) throw bad(`entities.${root}.id`, "виртуальный корень не помечается тегами");
  const ids = [...new Set(body.entities.map((e) => e.id))];
  const objects = await requireAccess(db, auth, "update", ids, { types: ["asset", "group"] });
  body.entities.forEach((e, i) => {
    const actual = objects.get(e.id)!.type;
    if (actual !== e.type) throw bad(`entities.${i}.type`, actual === "asset" ? "это asset, а не group" : "это group, а не asset");
  });
  const tagIds = [...new Set(body.tag_ids)];
  const found = new Set(
    (
      await db
        .select({ id: tags.tagId })
        .from(tags)
        .where(inArray(tags.tagId, idList(tagIds)))
        .all()
    ).map((r) => r.id),
  );
  const missing = body.tag_ids.findIndex((id) => !found.has(id));
  if (missing >= 0)
    throw new ApiError("not_found", "Тег не найден", [{ field: `tag_ids.${missing}`, message: `нет тега ${body.tag_ids[missing]}` }]);
  return { tagIds, entities: ids.map((id) => ({ id, type: objects.get(id)!.type, event: newId() })) };
}

/** Raw statements in a D1 batch bind nothing, so every value is an inlined literal (lib/sql.ts). */
const jsonLiteral = (value: unknown) => literal(JSON.stringify(value));

/** One event per object in `list` (a json_each over the checked objects) for which `changes` holds. */
function eventsWhere(auth: AuthUser, kind: string, list: SQL, tagIds: string[], changes: SQL) {
  return sql`INSERT INTO events (event_id, ctime, user_id, kind, entity_type, entity_id, data)
    SELECT json_extract(e.value, '$.event'), ${literal(nowSeconds())}, ${literal(auth.userId)}, ${literal(kind)},
      json_extract(e.value, '$.type'), json_extract(e.value, '$.id'), ${jsonLiteral({ tag_ids: tagIds, ...causeData() })}
    FROM json_each(${list}) e WHERE ${changes}`;
}

/**
 * Pairs written, from the statement's RETURNING rows: D1's `meta.changes` also counts what triggers write (the
 * search index marks the tagged objects, migration 0013).
 */
const changedCount = (rows: unknown) => (rows as unknown[]).length;

export async function attachTags(db: Db, auth: AuthUser, body: TagLinkBody) {
  const { tagIds, entities } = await checked(db, auth, body);
  const list = jsonLiteral(entities);
  const tagSet = idList(tagIds);
  // Before the insert: the objects that lack at least one of the tags.
  const lacking = sql`EXISTS (SELECT 1 FROM tags t WHERE t.tag_id IN ${tagSet}
    AND NOT EXISTS (SELECT 1 FROM entity_tags x WHERE x.entity_id = json_extract(e.value, '$.id') AND x.tag_id = t.tag_id))`;
  // Joined with tags, so a tag deleted since the check is skipped instead of leaving a dangling pair.
  const insert = sql`INSERT OR IGNORE INTO entity_tags (tag_id, entity_id, entity_type, ctime)
    SELECT t.tag_id, json_extract(e.value, '$.id'), json_extract(e.value, '$.type'), ${literal(nowSeconds())}
    FROM tags t CROSS JOIN json_each(${list}) e WHERE t.tag_id IN ${tagSet}`;
  const [, inserted] = await db.batch([
    db.run(eventsWhere(auth, "tag.attach", list, tagIds, lacking)),
    db.all(sql`${insert} RETURNING 1 AS x`),
  ]);
  return { ok: true as const, count: changedCount(inserted) };
}

export async function detachTags(db: Db, auth: AuthUser, body: TagLinkBody) {
  const { tagIds, entities } = await checked(db, auth, body);
  const list = jsonLiteral(entities);
  const tagSet = idList(tagIds);
  const carrying = sql`EXISTS (SELECT 1 FROM entity_tags x WHERE x.entity_id = json_extract(e.value, '$.id') AND x.tag_id IN ${tagSet})`;
  const remove = sql`DELETE FROM entity_tags WHERE tag_id IN ${tagSet} AND entity_id IN ${idList(entities.map((e) => e.id))}`;
  const [, removed] = await db.batch([
    db.run(eventsWhere(auth, "tag.detach", list, tagIds, carrying)),
    db.all(sql`${remove} RETURNING 1 AS x`),
  ]);
  return { ok: true as const, count: changedCount(removed) };
}
