import { asc, eq, sql, type SQLWrapper } from "drizzle-orm";
import { entityTags, tags } from "../../db/schema";
import type { Db } from "../lib/db";

/** An asset's `tags` and a group's `group_tags`: [{ tag_id, tag_name }] by name. */
export type TagRef = { tag_id: string; tag_name: string };

/**
 * The tags of the entity whose id is in `entityId`, as a column of a list query (groups/common.ts):
 * SQLite builds the JSON per row through the entity_tags primary key, so a page of groups stays one query.
 */
export const tagsColumn = (entityId: SQLWrapper) =>
  sql<string>`(SELECT json_group_array(json_object('tag_id', x.tag_id, 'tag_name', x.tag_name)) FROM
    (SELECT tg.tag_id, tg.tag_name FROM entity_tags et JOIN tags tg ON tg.tag_id = et.tag_id
     WHERE et.entity_id = ${entityId} ORDER BY tg.name_key) x)`.mapWith((v: string): TagRef[] => JSON.parse(v));

/** The tags of one entity. */
export function tagsOf(db: Db, entityId: string): Promise<TagRef[]> {
  return db
    .select({ tag_id: tags.tagId, tag_name: tags.tagName })
    .from(entityTags)
    .innerJoin(tags, eq(tags.tagId, entityTags.tagId))
    .where(eq(entityTags.entityId, entityId))
    .orderBy(asc(tags.nameKey))
    .all();
}
