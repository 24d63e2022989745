import { sql, type SQL } from "drizzle-orm";
import { accessContext, requireAccess } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { idList } from "../lib/sql";
import { parseQuery, snippet } from "../search/match";
import { bands, INDEX_RADIUS, setDistance } from "./hashes";
import { type Placed, latestOriginal, placed, readableAsset } from "./readable";

/**
 * Look-alikes by perceptual fingerprint (docs/decisions/058-duplicates-and-look-alikes.md). An asset's hash set is
 * its latest version's original's dHash (an image) or scene keyframe hashes (a video); the distance of two sets is
 * hashes.ts setDistance. Within INDEX_RADIUS the candidates come from the band indexes, beyond it from a scan of
 * every readable fingerprint: either way the answer is exact, never an approximation.
 */

const comparable = sql.raw("ph.kind IN ('dhash', 'scene')");

/** Hash sets of the latest originals, by asset, restricted by `where`. */
async function hashSets(db: Db, where: SQL): Promise<Map<string, string[]>> {
  const rows = await db.all<{ asset_id: string; hash: string }>(
    sql`SELECT ph.asset_id, ph.hash FROM perceptual_hashes ph WHERE ${comparable} AND ${latestOriginal("ph")} AND ${where} ORDER BY ph.asset_id, ph.seq`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.asset_id, [...(out.get(r.asset_id) ?? []), r.hash]);
  return out;
}

/** Assets with a fingerprint sharing a band with any of `hashes`: every one within INDEX_RADIUS of one of them. */
function bandMatch(hashes: string[]): SQL {
  const terms = hashes.flatMap((h) => bands(h).map((v, i) => `b${i} = ${v}`));
  return sql.raw(
    `ph.asset_id IN (SELECT ph2.asset_id FROM perceptual_hashes ph2 WHERE ph2.kind IN ('dhash', 'scene') AND (${terms
      .map((t) => `ph2.${t}`)
      .join(" OR ")}))`,
  );
}

export interface SimilarItem {
  el_id: string;
  el_type: "asset";
  name: string;
  score: number;
  snippet: string;
  mime?: string;
  size?: number;
  ctime: number;
  preview?: string;
  distance: number;
}

export async function similar(db: Db, auth: AuthUser, b: { like: string; max_distance: number; take: number }): Promise<SimilarItem[]> {
  await requireAccess(db, auth, "read", [b.like], { types: ["asset"] });
  const ctx = await accessContext(db, auth);
  const own = (await hashSets(db, sql`ph.asset_id = ${b.like}`)).get(b.like);
  if (!own) return [];
  const readable = readableAsset(ctx, sql.raw("ph.asset_id"));
  const where = b.max_distance <= INDEX_RADIUS ? sql`${bandMatch(own)} AND ${readable}` : readable;
  const hits = [...(await hashSets(db, sql`ph.asset_id <> ${b.like} AND ${where}`))]
    .map(([id, set]) => ({ id, distance: setDistance(own, set) }))
    .filter((h) => h.distance <= b.max_distance);
  if (hits.length === 0) return [];
  const rows = await db.all<{ id: string; name: string; mimetype: string; ctime: number; size: number | null; preview: string | null }>(
    sql`SELECT a.asset_id AS id, a.name, a.mimetype, a.ctime,
        (SELECT max(v.content_size) FROM variants v WHERE v.asset_id = a.asset_id AND v.variant_type IN ('initial', 'master', 'untyped')
          AND v.version = (SELECT max(lv.version) FROM versions lv WHERE lv.asset_id = a.asset_id)) AS size,
        (SELECT '/api/asset/content/preview/' || v.asset_id || '/' || v.version || '/' || v.variant_id FROM variants v
          WHERE v.asset_id = a.asset_id AND v.preview_key IS NOT NULL AND v.version = (SELECT max(lv.version) FROM variants lv WHERE lv.asset_id = a.asset_id) LIMIT 1) AS preview
      FROM assets a WHERE a.asset_id IN ${idList(hits.map((h) => h.id))}`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const none = parseQuery("");
  return hits
    .flatMap((h) => {
      const r = byId.get(h.id);
      return r ? [{ ...h, r }] : [];
    })
    .sort((x, y) => x.distance - y.distance || x.r.name.localeCompare(y.r.name) || x.id.localeCompare(y.id))
    .slice(0, b.take)
    .map(({ id, distance, r }) => ({
      el_id: id,
      el_type: "asset" as const,
      name: r.name,
      score: Math.round((1 - distance / 64) * 1000) / 1000,
      snippet: snippet(r.name, "", none),
      ...(r.mimetype ? { mime: r.mimetype } : {}),
      ...(r.size !== null ? { size: r.size } : {}),
      ctime: r.ctime,
      ...(r.preview ? { preview: r.preview } : {}),
      distance,
    }));
}

export interface NearSet {
  count: number;
  /** The largest distance between a member and the set's first (oldest) asset. */
  max_distance: number;
  assets: (Placed & { distance: number })[];
}

/** At most this many fingerprinted assets (the oldest ids first) are grouped in one answer: pairs grow with its square. */
export const NEAR_SCAN_LIMIT = 20_000;

/**
 * Sets of look-alikes among the readable assets: assets linked when their distance is at most `maxDistance`, a set
 * being a connected group of links. Pairs come from shared bands within INDEX_RADIUS, else from every pair.
 */
export async function nearSets(db: Db, auth: AuthUser, q: { max_distance: number; skip: number; take: number }) {
  const ctx = await accessContext(db, auth);
  const sets = await hashSets(db, readableAsset(ctx, sql.raw("ph.asset_id")));
  const ids = [...sets.keys()].slice(0, NEAR_SCAN_LIMIT);
  const parent = new Map(ids.map((id) => [id, id]));
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const link = (a: string, b: string) => {
    if (find(a) === find(b)) return;
    if (setDistance(sets.get(a)!, sets.get(b)!) <= q.max_distance) parent.set(find(a), find(b));
  };
  if (q.max_distance <= INDEX_RADIUS) {
    const buckets = new Map<string, Set<string>>();
    for (const id of ids)
      for (const h of sets.get(id)!)
        bands(h).forEach((v, i) => {
          const key = `${i}:${v}`;
          buckets.set(key, (buckets.get(key) ?? new Set()).add(id));
        });
    for (const members of buckets.values()) {
      const list = [...members];
      for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) link(list[i], list[j]);
    }
  } else for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) link(ids[i], ids[j]);
  const groups = new Map<string, string[]>();
  for (const id of ids) groups.set(find(id), [...(groups.get(find(id)) ?? []), id]);
  const found = [...groups.values()].filter((g) => g.length > 1);
  const names = found.length
    ? await db.all<{ id: string; name: string; ctime: number }>(
        sql`SELECT asset_id AS id, name, ctime FROM assets WHERE asset_id IN ${idList(found.flat())}`,
      )
    : [];
  const meta = new Map(names.map((n) => [n.id, n]));
  const ordered = found
    .map((g) => g.filter((id) => meta.has(id)).sort((a, b) => meta.get(a)!.ctime - meta.get(b)!.ctime || a.localeCompare(b)))
    .filter((g) => g.length > 1)
    .sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
  const page = ordered.slice(q.skip, q.skip + q.take);
  const named = new Map(
    (
      await placed(
        db,
        ctx,
        page.flat().map((id) => ({ id, name: meta.get(id)!.name })),
      )
    ).map((p) => [p.id, p]),
  );
  const items: NearSet[] = page.map((g) => {
    const first = sets.get(g[0])!;
    const assets = g.map((id) => ({ ...named.get(id)!, distance: id === g[0] ? 0 : setDistance(first, sets.get(id)!) }));
    return { count: g.length, max_distance: Math.max(...assets.map((a) => a.distance)), assets };
  });
  return { total: ordered.length, items };
}
