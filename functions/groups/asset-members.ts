import { sql, type SQL } from "drizzle-orm";
import type { AccessContext } from "../lib/access";
import { assetDenied, assetDenyFilter, deniedAssets } from "../lib/access-sql";
import type { Db } from "../lib/db";
import { literal } from "../lib/sql";
import { nameKey } from "./common";
import type { MembersQuery, MemberSort } from "../../shared/groups/schemas";

/**
 * The assets of a group, for members/{id}, dir and entity-by-path. The group is already known to be
 * readable, so an asset row needs only assetDenyFilter (the constant 1 for callers without denies).
 * Pages are ranges of group_members_page_idx (group_id, el_type, ctime, el_id), or of the index of the
 * sort copy asked for (group_members_{name,ctime,size}_idx, db/schema/group-members.ts): the OFFSET walks
 * that covering index alone, and only the page's rows are joined to assets and their latest variant.
 */

export interface AssetEntry {
  id: string;
  name: string;
  mime: string;
  ctime: number;
  mtime: number;
  atime: number;
  ver: number | null;
  var: string | null;
  size: number | null;
  hash: string | null;
}

type Row = Omit<AssetEntry, "ver" | "var" | "size" | "hash"> & { ver: number | null; latest: string | null };

const gm = sql.raw("gm.el_id");
const columns = sql`a.asset_id AS id, a.name AS name, a.mimetype AS mime, a.ctime AS ctime, a.mtime AS mtime, a.atime AS atime,
  (SELECT max(v.version) FROM versions v WHERE v.asset_id = a.asset_id) AS ver,
  (SELECT json_array(x.variant_id, x.content_size, coalesce(x.sha256, x.etag)) FROM variants x WHERE x.asset_id = a.asset_id
    ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1) AS latest`;

function toEntry(r: Row): AssetEntry {
  const [variantId, size, hash] = r.latest ? (JSON.parse(r.latest) as [string, number, string]) : [null, null, null];
  return { id: r.id, name: r.name, mime: r.mime, ctime: r.ctime, mtime: r.mtime, atime: r.atime, ver: r.ver, var: variantId, size, hash };
}

/**
 * Names are compared on gm.sort_name, the member's name case-folded for ASCII and Cyrillic with ё as е (kept
 * by triggers, migration 0006): folding a.name in the query took 33 nested replace() calls, deeper than some
 * SQLite builds' parsers go (libSQL's among them). The pattern is folded the same way.
 */
const sortKey = (name: string) => nameKey(name).replace(/ё/g, "е");

function nameFilter(filter: string | undefined, substring = true): SQL {
  if (!filter) return sql`1`;
  const pct = substring ? "%" : "";
  return sql`gm.sort_name LIKE ${literal(`${pct}${sortKey(filter).replace(/[\\%_]/g, "\\$&")}${pct}`)} ESCAPE '\\'`;
}

const pageDenyFilters = new WeakMap<AccessContext, Promise<SQL>>();

/**
 * The deny filter for a deep page: with group denies, the (usually few) denied assets are fetched
 * first and inlined, so a skipped row costs no probe of a subquery; many of them keep the subquery.
 * Kept per context (that is, per request), so members/{id} can start the fetch beside its subgroup query.
 */
export function pageDenyFilter(db: Db, ctx: AccessContext): Promise<SQL> {
  let filter = pageDenyFilters.get(ctx);
  if (!filter) {
    filter = loadPageDenyFilter(db, ctx);
    pageDenyFilters.set(ctx, filter);
  }
  return filter;
}

async function loadPageDenyFilter(db: Db, ctx: AccessContext): Promise<SQL> {
  if (ctx.admin || ctx.denyPaths.length === 0) return assetDenyFilter(ctx, gm);
  const ids = await db.all<{ el_id: string }>(sql`${deniedAssets(ctx)} LIMIT 201`);
  if (ids.length > 200) return assetDenyFilter(ctx, gm);
  return assetDenyFilter({ ...ctx, denyPaths: [], assetDenies: new Set([...ctx.assetDenies, ...ids.map((r) => r.el_id)]) }, gm);
}

/** The group_members column each order pages on; no sort is the order the assets were added in. */
const sortColumn: Record<MemberSort | "added", string> = { added: "ctime", name: "sort_name", ctime: "sort_ctime", size: "sort_size" };

/**
 * How many of a readable group's assets the caller may see, when that costs no walk: the group's
 * asset_count (kept by triggers) less the members the caller is denied, each looked up by key. For a
 * deep page, so assetPage can walk from the nearer end. Undefined with a name filter (only a walk can count that).
 */
export function visibleAssetCount(db: Db, ctx: AccessContext, groupId: string, q: Pick<MembersQuery, "filters">) {
  if (q.filters) return undefined;
  return db
    .select({
      n: sql<number>`g.asset_count - (SELECT count(*) FROM group_members gm
      WHERE gm.group_id = g.group_id AND gm.el_type = 'asset' AND ${assetDenied(ctx, gm)})`.as("n"),
    })
    .from(sql`groups g`)
    .where(sql`g.group_id = ${literal(groupId)}`);
}

/**
 * One page of a readable group's assets, in the order they were added or in the order asked for.
 * With `total` (visibleAssetCount), a page nearer the end is read from the end: the index is walked
 * backwards over the rows after the page instead of forwards over all before it, so the last page of
 * 100,000 costs what the first does.
 */
export async function assetPage(
  db: Db,
  ctx: AccessContext,
  groupId: string,
  skip: number,
  take: number,
  q: Pick<MembersQuery, "filters" | "sort" | "order">,
  total?: number,
): Promise<AssetEntry[]> {
  if (take <= 0) return [];
  const deny = await pageDenyFilter(db, ctx);
  const key = sortColumn[q.sort ?? "added"];
  const fromEnd = total !== undefined && total - skip - take < skip;
  const ascending = (q.order === "desc") === fromEnd;
  const [offset, limit] = fromEnd ? [Math.max(0, total - skip - take), Math.max(0, Math.min(take, total - skip))] : [skip, take];
  if (limit === 0) return [];
  const dir = ascending ? "ASC" : "DESC";
  const order = (t: string) => sql.raw(`${t}.${key} ${dir}, ${t}.el_id ${dir}`);
  const rows = q.filters
    ? await db.all<Row>(sql`SELECT ${columns} FROM group_members gm JOIN assets a ON a.asset_id = gm.el_id
        WHERE gm.group_id = ${literal(groupId)} AND gm.el_type = 'asset' AND ${deny} AND ${nameFilter(q.filters)}
        ORDER BY ${order("gm")} LIMIT ${limit} OFFSET ${offset}`)
    : await db.all<Row>(sql`SELECT ${columns} FROM (SELECT gm.el_id, gm.${sql.raw(key)} FROM group_members gm
        WHERE gm.group_id = ${literal(groupId)} AND gm.el_type = 'asset' AND ${deny}
        ORDER BY ${order("gm")} LIMIT ${limit} OFFSET ${offset}) p JOIN assets a ON a.asset_id = p.el_id
        ORDER BY ${order("p")}`);
  if (fromEnd) rows.reverse();
  return rows.map(toEntry);
}

/** The readable asset named `name` (compared as the UI does: case-folded) in a readable group, if any. */
export async function assetByName(db: Db, ctx: AccessContext, groupId: string, name: string): Promise<AssetEntry | null> {
  const rows = await db.all<Row>(sql`SELECT ${columns} FROM group_members gm JOIN assets a ON a.asset_id = gm.el_id
    WHERE gm.group_id = ${literal(groupId)} AND gm.el_type = 'asset' AND ${assetDenyFilter(ctx, gm)}
      AND ${nameFilter(name, false)} ORDER BY gm.ctime, gm.el_id LIMIT 20`);
  const hit = rows.find((r) => nameKey(r.name) === nameKey(name));
  return hit ? toEntry(hit) : null;
}
