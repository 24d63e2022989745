import { inArray, type SQLWrapper } from "drizzle-orm";
import { entityTags, taxonMembers } from "../../db/schema";
import type { Db } from "./db";

/**
 * The statements that drop what points at deleted assets or purged groups from the side (their tags,
 * their taxon memberships), for the batch that deletes them. `ids`: an id list or a subquery.
 */
export const unlinkEntities = (db: Db, ids: SQLWrapper) => [
  db.delete(entityTags).where(inArray(entityTags.entityId, ids)),
  db.delete(taxonMembers).where(inArray(taxonMembers.objectId, ids)),
];
