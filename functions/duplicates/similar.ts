import { sql, type SQL } from "drizzle-orm";
import { accessContext, requireAccess } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { idList } from "../lib/sql";
import { parseQuery, snippet } from "../search/match";
import { BAND_WIDTHS, hamming, INDEX_RADIUS, NEAR_INDEX_RADIUS, nearBands, probeCount, probes, setDistance } from "./hashes";
import { type Placed, latestOriginal, placed, readableAsset } from "./readable";

/**
 * Look-alikes by perceptual fingerprint (docs/decisions/058-duplicates-and-look-alikes.md). An asset's hash set is
 * its latest version's original's dHash (an image) or scene keyframe hashes (a video); the distance of two sets is
 * hashes.ts setDistance. Within INDEX_RADIUS the candidates come from the band indexes, beyond it from a scan of
 * every fingerprint: either way the answer is exact, never an approximation.
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

/**
 * Band values one query may look up (about 45 KB of SQL, under D1's statement limit): a picture within 11 needs
 * 4,918; a video's many keyframes beyond this budget scan instead.
 */
const PROBE_BUDGET = 6000;

/**
 * Every stored comparable hash within `distance` of one of `own`, as (asset, hash) rows, unchecked for versions or
 * access: one indexed lookup per band (UNION, so each arm uses its band's partial covering index, which an OR of
 * the three does not), or a scan of one of those indexes when the probes would be too many.
 */
async function candidates(db: Db, own: string[], distance: number) {
  const kinds = "kind IN ('dhash', 'scene')";
  if (distance > INDEX_RADIUS || own.length * probeCount(distance) > PROBE_BUDGET)
    return db.all<{ asset_id: string; hash: string }>(sql.raw(`SELECT asset_id, hash FROM perceptual_hashes WHERE ${kinds}`));
  const perBand = BAND_WIDTHS.map(() => new Set<number>());
  for (const h of own)
    probes(h, distance).forEach((values, i) => {
      for (const v of values) perBand[i].add(v);
    });
  // Band values are integers computed here: inlined, they need no binding (D1 binds at most 100 values).
  const arms = perBand.map(
    (values, i) => `SELECT asset_id, hash FROM perceptual_hashes WHERE ${kinds} AND b${i} IN (${[...values].join(", ")})`,
  );
  return db.all<{ asset_id: string; hash: string }>(sql.raw(arms.join(" UNION ")));
}

/** Candidates verified per statement (their versions, access and whole hash sets). */
const VERIFY_CHUNK = 200;

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
  // The asset's own hashes are read alongside the access check (one round trip less) and used only once it passed.
  const [, ctx, sets] = await Promise.all([
    requireAccess(db, auth, "read", [b.like], { types: ["asset"] }),
    accessContext(db, auth),
    hashSets(db, sql`ph.asset_id = ${b.like}`),
  ]);
  const own = sets.get(b.like);
  if (!own) return [];
  // The nearest pair of hashes bounds a set distance from below (hashes.ts setDistance): candidates are checked
  // nearest first, and checking stops once `take` hits are nearer than every candidate left.
  const bound = new Map<string, number>();
  for (const c of await candidates(db, own, b.max_distance)) {
    if (c.asset_id === b.like) continue;
    const d = Math.min(...own.map((h) => hamming(h, c.hash)));
    if (d <= b.max_distance && d < (bound.get(c.asset_id) ?? 65)) bound.set(c.asset_id, d);
  }
  const queue = [...bound].sort((x, y) => x[1] - y[1]);
  const readable = readableAsset(ctx, sql.raw("ph.asset_id"));
  const hits: { id: string; distance: number }[] = [];
  for (let i = 0; i < queue.length; i += VERIFY_CHUNK) {
    const chunk = queue.slice(i, i + VERIFY_CHUNK).map(([id]) => id);
    for (const [id, set] of await hashSets(db, sql`ph.asset_id IN ${idList(chunk)} AND ${readable}`)) {
      const distance = setDistance(own, set);
      if (distance <= b.max_distance) hits.push({ id, distance });
    }
    hits.sort((x, y) => x.distance - y.distance);
    const next = queue[i + VERIFY_CHUNK];
    if (next && hits.length >= b.take && hits[b.take - 1].distance < next[1]) break;
  }
  if (hits.length === 0) return [];
  // Ties at the last place are ordered by name: every hit as near as the take-th is named.
  const cut = hits[Math.min(b.take, hits.length) - 1].distance;
  const named = hits.filter((h) => h.distance <= cut);
  const rows = await db.all<{ id: string; name: string; mimetype: string; ctime: number; size: number | null; preview: string | null }>(
    sql`SELECT a.asset_id AS id, a.name, a.mimetype, a.ctime,
        (SELECT max(v.content_size) FROM variants v WHERE v.asset_id = a.asset_id AND v.variant_type IN ('initial', 'master', 'untyped')
          AND v.version = (SELECT max(lv.version) FROM versions lv WHERE lv.asset_id = a.asset_id)) AS size,
        (SELECT '/api/asset/content/preview/' || v.asset_id || '/' || v.version || '/' || v.variant_id FROM variants v
          WHERE v.asset_id = a.asset_id AND v.preview_key IS NOT NULL AND v.version = (SELECT max(lv.version) FROM variants lv WHERE lv.asset_id = a.asset_id) LIMIT 1) AS preview
      FROM assets a WHERE a.asset_id IN ${idList(named.map((h) => h.id))}`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const none = parseQuery("");
  return named
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
 * being a connected group of links. Pairs come from shared narrow bands within NEAR_INDEX_RADIUS, else from every pair.
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
  if (q.max_distance <= NEAR_INDEX_RADIUS) {
    const buckets = new Map<string, Set<string>>();
    for (const id of ids)
      for (const h of sets.get(id)!)
        nearBands(h).forEach((v, i) => {
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
