import { and, asc, desc, eq, gt, inArray, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { groups } from "../../db/schema";
import { accessContext, groupPermissions, requireAccess, VIRTUAL_ROOT_ID, type AccessContext } from "../lib/access";
import { groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { idList, inSubtree, literal } from "../lib/sql";
import { treeJsonGzip, treeVersion } from "../lib/tree-answers";
import { groupColumns, nameKey, parentPath, pathIds, present } from "./common";
import type { MembersQuery, SubtreeQuery } from "../../shared/groups/schemas";
import { assetPage, pageDenyFilter, visibleAssetCount, type AssetEntry } from "./asset-members";

/** Reading the tree: every list filters by the engine's SQL (lib/access-sql.ts), never in JS afterwards. */

const groupNotFound = "Группа не найдена";
const byName = [asc(groups.nameKey), asc(groups.groupId)];
/** Subgroups in a members page: by name, or by ctime when the page is sorted so (groups have no size). */
function subgroupOrder(q: MembersQuery) {
  const dir = q.order === "desc" ? desc : asc;
  return q.sort === "ctime" ? [dir(groups.ctime), dir(groups.groupId)] : [dir(groups.nameKey), dir(groups.groupId)];
}
const nameLike = (q: string | undefined): SQL | undefined =>
  q ? sql`${groups.nameKey} LIKE ${`%${nameKey(q).replace(/[\\%_]/g, "\\$&")}%`} ESCAPE '\\'` : undefined;

async function readGroup(db: Db, auth: AuthUser, id: string, notFound = groupNotFound) {
  const obj = (await requireAccess(db, auth, "read", [id], { types: ["group"], notFound })).get(id)!;
  return obj.type === "group" ? obj.path : "/";
}

/** Real top-level groups the caller can read. */
export async function roots(db: Db, auth: AuthUser) {
  const ctx = await accessContext(db, auth);
  const rows = await db
    .select(groupColumns)
    .from(groups)
    .where(and(isNull(groups.parentId), groupFilter(ctx, groups)))
    .orderBy(...byName)
    .all();
  return rows.map((r) => present(ctx, r));
}

/** Paths of the top-most groups a non-admin can read (deleted ones are dropped by the queries). */
function topPaths(ctx: AccessContext) {
  const candidates = new Set([...ctx.grants.map((g) => g.path), ...(ctx.chroot ?? [])]);
  return [...candidates].filter((p) => groupPermissions(ctx, p) && (parentPath(p) === "/" || !groupPermissions(ctx, parentPath(p))));
}

/**
 * Children of the virtual root: the top-most groups the caller can read. Such a group is where a
 * grant or a chroot starts (its parent is unreadable), so the candidates are those rules' groups.
 */
export async function aclRoots(db: Db, auth: AuthUser) {
  const ctx = await accessContext(db, auth);
  if (ctx.admin) return roots(db, auth);
  const tops = topPaths(ctx);
  if (tops.length === 0) return [];
  const ids = tops.map((p) => pathIds(p).at(-1)!);
  const rows = await db
    .select(groupColumns)
    .from(groups)
    .where(and(inArray(groups.groupId, idList(ids)), isNull(groups.deletedAt)))
    .orderBy(...byName)
    .all();
  return rows.map((r) => present(ctx, r));
}

const groupMember = (g: { group_id: string; group_name: string; ctime: number }) => ({
  el_id: g.group_id,
  el_type: "group" as const,
  el_info: { name: g.group_name, mimetype: null, ctime: g.ctime, ver: null, var: null, var_size: null },
});

const assetMember = (a: AssetEntry) => ({
  el_id: a.id,
  el_type: "asset" as const,
  el_info: { name: a.name, mimetype: a.mime, ctime: a.ctime, ver: a.ver, var: a.var, var_size: a.size },
});

export type Member = ReturnType<typeof groupMember> | ReturnType<typeof assetMember>;

/**
 * A page of a group's contents: subgroups by name, then assets in the order they were added
 * (./asset-members.ts), or both in the order `sort`/`order` ask for. Subgroups come from the covering index groups_parent_idx; rules above the
 * group are settled once (groupFilter's `within`), so a deep OFFSET walks the index only. The asset
 * part starts at skip minus the number of readable subgroups, counted only when the page has none.
 */
export async function members(db: Db, auth: AuthUser, id: string, q: MembersQuery) {
  return (await memberEntries(db, auth, id, q)).map((m) => (m.type === "group" ? groupMember(m.group) : assetMember(m.asset)));
}

type Entry =
  | { type: "group"; group: { group_id: string; group_name: string; ctime: number; mtime: number } }
  | { type: "asset"; asset: AssetEntry };

/** members() before shaping: dir() needs the times and hashes too. */
export async function memberEntries(db: Db, auth: AuthUser, id: string, q: MembersQuery): Promise<Entry[]> {
  const path = await readGroup(db, auth, id);
  const ctx = await accessContext(db, auth);
  if (id === VIRTUAL_ROOT_ID) {
    const tops = q.type === "asset" ? [] : await aclRoots(db, auth);
    const key = q.filters ? nameKey(q.filters) : "";
    const matching = tops.filter((g) => nameKey(g.group_name).includes(key));
    // aclRoots come by name; ctime is the only other order a group has.
    if (q.sort === "ctime") matching.sort((a, b) => a.ctime - b.ctime || (a.group_id < b.group_id ? -1 : 1));
    if (q.order === "desc") matching.reverse();
    return matching.slice(q.skip, q.skip + q.take).map((group) => ({ type: "group", group }));
  }
  // The assets' deny filter may need a query of its own: started now, it runs beside the subgroups'.
  if (q.type !== "group") pageDenyFilter(db, ctx).catch(() => {});
  const where = and(eq(groups.parentId, id), groupFilter(ctx, groups, "read", path), nameLike(q.filters));
  const subgroups = db
    .select({ group_id: groups.groupId, group_name: groups.groupName, ctime: groups.ctime, mtime: groups.mtime })
    .from(groups)
    .where(where)
    .orderBy(...subgroupOrder(q))
    .limit(q.take)
    .offset(q.skip);
  // A deep page also needs, in the same round trip, the subgroups before it (an index range) and how many
  // assets there are (so assetPage can read it from the nearer end).
  const deep = q.skip > 0 && q.type !== "group";
  const subgroupCount = db.select({ n: sql<number>`count(*)` }).from(groups).where(where);
  const assetCount = deep ? visibleAssetCount(db, ctx, id, q) : undefined;
  const [rows, before, total] = await Promise.all([
    q.type === "asset" ? [] : subgroups.all(),
    deep && q.type === "all" ? subgroupCount.get().then((r) => r?.n ?? 0) : 0,
    assetCount?.get().then((r) => r?.n),
  ]);
  const page: Entry[] = rows.map((group) => ({ type: "group", group }));
  if (q.type === "group" || page.length === q.take) return page;
  const skip = Math.max(0, q.skip - (rows.length ? q.skip + rows.length : before));
  const assetRows = await assetPage(db, ctx, id, skip, q.take - page.length, q, total);
  return [...page, ...assetRows.map((asset) => ({ type: "asset" as const, asset }))];
}

/**
 * The readable groups below one (or below the virtual root), in path order; `depth` levels at most.
 * With `take`, one page: a keyset on groups_path_idx starting after the group `after` (which must be
 * a readable group in this subtree), so a deep page costs what the first does.
 */
export async function subtree(db: Db, auth: AuthUser, id: string, q: SubtreeQuery): Promise<ArrayBuffer> {
  const [path, after, version] = await Promise.all([
    readGroup(db, auth, id),
    q.after === undefined ? undefined : readGroup(db, auth, q.after, "Группа из параметра after не найдена"),
    treeVersion(db),
  ]);
  if (after !== undefined && (after === path || !after.startsWith(path))) {
    throw new ApiError("bad_request", "after должен быть группой внутри этого поддерева", [
      { field: "after", message: "не из этого поддерева" },
    ]);
  }
  const ctx = await accessContext(db, auth);
  const { depth } = q;
  const page = (where: SQL | undefined) => and(where, after === undefined ? undefined : gt(groups.path, after));
  const cols = { group_id: groups.groupId, group_name: groups.groupName, parent_id: groups.parentId, depth: groups.depth };
  const keys = Object.keys(cols);
  if (id === VIRTUAL_ROOT_ID) {
    // Below the virtual root: the subtrees of the caller's top-most groups, which count as level 1.
    const tops = ctx.admin ? null : topPaths(ctx);
    // Nothing readable: the empty answer, by the same path (a statement that matches no row).
    if (tops?.length === 0) return treeJsonGzip(db, version, db.select(cols).from(groups).where(sql`0`), keys);
    const scope = tops
      ? or(
          ...tops.map((t) =>
            and(inSubtree(groups.path, t), depth === undefined ? undefined : lte(groups.depth, pathIds(t).length + depth - 1)),
          ),
        )
      : depth === undefined
        ? undefined
        : lte(groups.depth, depth);
    // As present() shows them: a top-most group's parent is unreadable, so it hangs under the virtual root.
    const parent = tops
      ? sql<string | null>`CASE WHEN ${groups.path} IN ${idList(tops)} THEN ${literal(VIRTUAL_ROOT_ID)} ELSE ${groups.parentId} END`.as(
          "parent_id",
        )
      : groups.parentId;
    const rows = db
      .select({ ...cols, parent_id: parent })
      .from(groups)
      .where(page(and(scope, groupFilter(ctx, groups))))
      .orderBy(asc(groups.path))
      .limit(q.take ?? -1);
    return treeJsonGzip(db, version, rows, keys);
  }
  const base = pathIds(path).length;
  const rows = db
    .select(cols)
    .from(groups)
    .where(
      page(
        and(
          inSubtree(groups.path, path),
          ne(groups.groupId, id),
          groupFilter(ctx, groups, "read", path),
          depth === undefined ? undefined : lte(groups.depth, base + depth),
        ),
      ),
    )
    .orderBy(asc(groups.path))
    .limit(q.take ?? -1);
  // Below a readable group every parent is readable: nothing to hide.
  return treeJsonGzip(db, version, rows, keys);
}
