import { and, asc, countDistinct, eq, isNull, ne, sql } from "drizzle-orm";
import { groupMembers, groups } from "../../db/schema";
import { accessContext, requireAccess, VIRTUAL_ROOT_ID, VIRTUAL_ROOT_NAME } from "../lib/access";
import { assetDenyFilter, groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import { requireAdmin } from "../lib/auth";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { inSubtree } from "../lib/sql";
import { groupColumns, nameKey, present } from "./common";
import { aclRoots, memberEntries } from "./tree";
import { assetByName, type AssetEntry } from "./asset-members";

/** Search, path lookups for the disk helper, sizes and previews. */

export async function searchGroups(db: Db, auth: AuthUser, q: string, skip: number, take: number) {
  const ctx = await accessContext(db, auth);
  const like = `%${nameKey(q).replace(/[\\%_]/g, "\\$&")}%`;
  const rows = await db
    .select(groupColumns)
    .from(groups)
    .where(and(sql`${groups.nameKey} LIKE ${like} ESCAPE '\\'`, groupFilter(ctx, groups)))
    .orderBy(asc(groups.nameKey), asc(groups.groupId))
    .limit(take)
    .offset(skip)
    .all();
  return rows.map((r) => present(ctx, r));
}

/**
 * "/Проект/Видео" -> its segments. The path starts at the virtual root; "." stays, ".." goes up,
 * and a ".." above the virtual root walks out of the tree: 400, not a quiet clamp.
 */
export function splitPath(path: string): string[] {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0)
        throw new ApiError("bad_request", "Путь выходит за пределы дерева", [{ field: "path", message: "выходит за корень" }]);
      out.pop();
    } else out.push(seg);
  }
  return out;
}

const pathNotFound = "Путь не найден";

/** Resolves a path of names, as the caller sees the tree: its top-most groups under the virtual root. */
export async function entityByPath(db: Db, auth: AuthUser, path: string) {
  const found = await resolvePath(db, auth, path);
  return found.type === "asset"
    ? { el_id: found.asset.id, el_type: "asset" as const, name: found.asset.name }
    : { el_id: found.id, el_type: "group" as const, name: found.name };
}

type Resolved = { type: "group"; id: string; name: string } | { type: "asset"; asset: AssetEntry };

/** Groups all the way down; the last segment may also name an asset in the group before it. */
async function resolvePath(db: Db, auth: AuthUser, path: string): Promise<Resolved> {
  const segments = splitPath(path);
  if (segments.length === 0) return { type: "group", id: VIRTUAL_ROOT_ID, name: VIRTUAL_ROOT_NAME };
  const top = (await aclRoots(db, auth)).find((g) => nameKey(g.group_name) === nameKey(segments[0]));
  if (!top) throw new ApiError("not_found", pathNotFound);
  let current = { id: top.group_id, name: top.group_name };
  for (const [i, seg] of segments.slice(1).entries()) {
    const next = await db
      .select({ id: groups.groupId, name: groups.groupName })
      .from(groups)
      .where(and(eq(groups.parentId, current.id), eq(groups.nameKey, nameKey(seg)), isNull(groups.deletedAt)))
      .get();
    if (next) {
      current = next;
      continue;
    }
    if (i !== segments.length - 2) throw new ApiError("not_found", pathNotFound);
    // The last segment is no subgroup: an asset of that name, when the group holding it is readable.
    await requireAccess(db, auth, "read", [current.id], { notFound: pathNotFound });
    const asset = await assetByName(db, await accessContext(db, auth), current.id, seg);
    if (!asset) throw new ApiError("not_found", pathNotFound);
    return { type: "asset", asset };
  }
  // Rights are subtree-closed below a top-most group, so checking the last one covers the way down.
  await requireAccess(db, auth, "read", [current.id], { notFound: pathNotFound });
  return { type: "group", ...current };
}

const assetDirEntry = (a: AssetEntry) => ({
  id: a.id,
  type: "asset" as const,
  name: a.name,
  ctime: a.ctime,
  mtime: a.mtime,
  atime: a.atime,
  mime: a.mime,
  size: a.size ?? 0,
  ver: a.ver,
  var: a.var,
  var_hash: a.hash,
});

/** A directory listing for the disk helper: the group at `path` (its entries) or the asset there (itself). */
export async function dir(db: Db, auth: AuthUser, path: string, skip: number, take: number) {
  const target = await resolvePath(db, auth, path);
  if (target.type === "asset") return skip === 0 ? [assetDirEntry(target.asset)] : [];
  const page = await memberEntries(db, auth, target.id, { type: "all", skip, take, order: "asc" });
  return page.map((m) => {
    if (m.type === "asset") return assetDirEntry(m.asset);
    // atime is not tracked for groups (a write per read is not worth it): it reports mtime.
    const g = m.group;
    return {
      id: g.group_id,
      type: "group" as const,
      name: g.group_name,
      ctime: g.ctime,
      mtime: g.mtime,
      atime: g.mtime,
      mime: null,
      size: 0,
      ver: null,
      var: null,
      var_hash: null,
    };
  });
}

/** Readable subgroups and assets below a group (sizes join in with asset versions). */
export async function groupSize(db: Db, auth: AuthUser, id: string) {
  const obj = (await requireAccess(db, auth, "read", [id], { types: ["group"], notFound: "Группа не найдена" })).get(id)!;
  const ctx = await accessContext(db, auth);
  const path = obj.type === "group" && id !== VIRTUAL_ROOT_ID ? obj.path : undefined;
  const scope = path ? inSubtree(groups.path, path) : undefined;
  const filter = groupFilter(ctx, groups, "read", path);
  const [g, a] = await db.batch([
    db
      .select({ n: sql<number>`count(*)` })
      .from(groups)
      .where(and(scope, ne(groups.groupId, id), filter)),
    db
      .select({ n: countDistinct(groupMembers.elId) })
      .from(groupMembers)
      .innerJoin(groups, eq(groups.groupId, groupMembers.groupId))
      .where(and(eq(groupMembers.elType, "asset"), scope, filter, assetDenyFilter(ctx, groupMembers.elId))),
  ]);
  return { group_id: id, groups: g[0]?.n ?? 0, assets: a[0]?.n ?? 0, size: 0 };
}

/** Teams: groups that have users as members, with how many (admin area, /admin/groups). */
export async function groupsWithUsers(db: Db, auth: AuthUser) {
  requireAdmin(auth);
  return db
    .select({ group_id: groups.groupId, group_name: groups.groupName, users: sql<number>`count(*)` })
    .from(groupMembers)
    .innerJoin(groups, and(eq(groups.groupId, groupMembers.groupId), isNull(groups.deletedAt)))
    .where(eq(groupMembers.elType, "user"))
    .groupBy(groups.groupId)
    .orderBy(asc(groups.nameKey))
    .all();
}

/** Up to four assets per group for the folder thumbnails. */
export async function previewList(db: Db, auth: AuthUser, ids: string[]) {
  await requireAccess(db, auth, "read", ids, { types: ["group"], notFound: "Группа не найдена" });
  const ctx = await accessContext(db, auth);
  const queries = ids.map((id) =>
    db
      .select({ id: groupMembers.elId })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, id), eq(groupMembers.elType, "asset"), assetDenyFilter(ctx, groupMembers.elId)))
      .orderBy(asc(groupMembers.ctime), asc(groupMembers.elId))
      .limit(4),
  );
  const results = await db.batch(queries as [(typeof queries)[number], ...typeof queries]);
  return ids.map((id, i) => ({ group_id: id, assets: results[i].map((r) => r.id) }));
}
