import { and, eq, isNull, ne, type SQL } from "drizzle-orm";
import { groups } from "../../db/schema";
import { groupPermissions, VIRTUAL_ROOT_ID, type AccessContext } from "../lib/access";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { tagsColumn } from "../tags/of-entity";
import { clashOnUnique } from "../lib/sql";
import { parentPath, pathIds } from "../lib/paths";

/** The public shape of a group (schemas.ts `group`), selected straight from the table. */
export const groupColumns = {
  group_id: groups.groupId,
  group_name: groups.groupName,
  parent_id: groups.parentId,
  group_owner: groups.owner,
  group_default_storage: groups.defaultStorage,
  group_default_class: groups.defaultClass,
  group_tags: tagsColumn(groups.groupId),
  ctime: groups.ctime,
  mtime: groups.mtime,
  path: groups.path,
};

/**
 * Strips the materialized path and hides a parent the caller cannot read: such a group is one of its
 * top-most, so in its view the parent is the virtual root (an unreadable parent's id would leak).
 */
export function present<T extends { parent_id: string | null; path: string }>(ctx: AccessContext, row: T): Omit<T, "path"> {
  const { path, ...rest } = row;
  if (rest.parent_id === null || ctx.admin) return rest;
  return groupPermissions(ctx, parentPath(path)) ? rest : { ...rest, parent_id: VIRTUAL_ROOT_ID };
}

/** Sibling names are unique case-insensitively; SQLite's lower() is ASCII-only, so the key is made here. */
export const nameKey = (name: string) => name.normalize("NFC").toLocaleLowerCase("ru");

/** Ids along a materialized path (functions/lib/paths.ts), re-exported for the group files. */
export { parentPath, pathIds };

export const duplicateName = (name: string) =>
  new ApiError("conflict", `Группа с именем «${name}» уже есть на этом уровне`, [{ field: "group_name", message: "имя занято" }]);

/** Throws conflict when a live sibling under `parentId` (null: the roots) already has this name. */
export async function assertNameFree(db: Db, parentId: string | null, name: string, exceptId?: string) {
  const conds: SQL[] = [eq(groups.nameKey, nameKey(name)), isNull(groups.deletedAt)];
  conds.push(parentId === null ? isNull(groups.parentId) : eq(groups.parentId, parentId));
  if (exceptId) conds.push(ne(groups.groupId, exceptId));
  const clash = await db
    .select({ id: groups.groupId })
    .from(groups)
    .where(and(...conds))
    .limit(1)
    .get();
  if (clash) throw duplicateName(name);
}

/** A racing writer can still hit the unique index between check and batch: same 409 then. */
export const mapUniqueViolation = <T>(name: string, run: () => Promise<T>): Promise<T> =>
  clashOnUnique(run, () => duplicateName(name), "groups");
