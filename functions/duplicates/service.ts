import { sql } from "drizzle-orm";
import { accessContext, requireAccessReading } from "../lib/access";
import type { Db } from "../lib/db";
import { idList, statementOf } from "../lib/sql";
import type { AuthUser } from "../lib/env";
import { type Placed, type PlacementRow, latestOriginal, placed, placedFrom, placementsQuery, readableAsset } from "./readable";

/**
 * Exact duplicates (docs/decisions/058-duplicates-and-look-alikes.md): assets whose latest version's original has
 * the same SHA-256, as the transcoder measured it on the stored bytes. Only what the caller can read is named.
 */

/** At most this many copies are named for one asset: a file kept a thousand times needs no longer answer. */
const MAX_COPIES = 100;

export interface DuplicatesOf {
  /** false until the transcoder has hashed the asset's original (the upload panel shows «проверка на дубликаты…»). */
  known: boolean;
  sha256: string | null;
  items: Placed[];
}

export async function duplicatesOf(db: Db, auth: AuthUser, assetId: string): Promise<DuplicatesOf> {
  const ctx = await accessContext(db, auth);
  const own = sql`SELECT DISTINCT ch.sha256 FROM content_hashes ch WHERE ch.asset_id = ${assetId} AND ${latestOriginal("ch")}`;
  const copies = sql`SELECT DISTINCT a.asset_id AS id, a.name FROM content_hashes ch JOIN assets a ON a.asset_id = ch.asset_id
      WHERE ch.sha256 IN (${own}) AND ch.asset_id <> ${assetId} AND ${latestOriginal("ch")}
        AND ${readableAsset(ctx, sql.raw("ch.asset_id"))}
      ORDER BY a.name, a.asset_id LIMIT ${MAX_COPIES}`;
  // The hash, the copies and their placements go in the access check's own batch and are used only once it
  // passed: a call to the database costs more than these statements, so the answer takes one besides the sign-in.
  const [[sha], rows, placements] = await requireAccessReading(
    db,
    auth,
    "read",
    [assetId],
    [statementOf(sql`${own} LIMIT 1`), statementOf(copies), statementOf(placementsQuery(ctx, sql`(SELECT id FROM (${copies}))`))],
    { types: ["asset"] },
  );
  if (!sha) return { known: false, sha256: null, items: [] };
  const copyRows = rows as unknown as { id: string; name: string }[];
  return { known: true, sha256: sha.sha256 as string, items: placedFrom(copyRows, placements as unknown as PlacementRow[]) };
}

export interface DuplicateSet {
  sha256: string;
  size: number;
  count: number;
  /** What removing all copies but one would free, in bytes. */
  freed: number;
  assets: Placed[];
}

/**
 * Sets of identical originals among the assets the caller can read (admins: all), the ones freeing most first.
 * `freed_total` is summed over every set, not just the page.
 */
export async function duplicateSets(db: Db, auth: AuthUser, page: { skip: number; take: number }) {
  const ctx = await accessContext(db, auth);
  // The sets as a CTE both statements share: the readable latest originals, grouped by hash.
  const sets = sql`WITH r AS MATERIALIZED (SELECT DISTINCT ch.sha256, ch.asset_id, ch.size FROM content_hashes ch
      WHERE ${latestOriginal("ch")} AND EXISTS (SELECT 1 FROM assets a WHERE a.asset_id = ch.asset_id) AND ${readableAsset(ctx, sql.raw("ch.asset_id"))}),
    s AS (SELECT sha256, max(size) AS size, count(DISTINCT asset_id) AS n FROM r GROUP BY sha256 HAVING n > 1)`;
  const [rows, totals] = await Promise.all([
    db.all<{ sha256: string; size: number; n: number }>(
      sql`${sets} SELECT sha256, size, n FROM s ORDER BY size * (n - 1) DESC, sha256 LIMIT ${page.take} OFFSET ${page.skip}`,
    ),
    db.get<{ total: number; freed_total: number }>(
      sql`${sets} SELECT count(*) AS total, coalesce(sum(size * (n - 1)), 0) AS freed_total FROM s`,
    ),
  ]);
  const members = rows.length
    ? await db.all<{ sha256: string; id: string; name: string }>(
        sql`SELECT DISTINCT ch.sha256, a.asset_id AS id, a.name, a.ctime FROM content_hashes ch JOIN assets a ON a.asset_id = ch.asset_id
          WHERE ch.sha256 IN ${idList(rows.map((r) => r.sha256))} AND ${latestOriginal("ch")} AND ${readableAsset(ctx, sql.raw("ch.asset_id"))}
          ORDER BY a.ctime, a.asset_id`,
      )
    : [];
  const named = new Map((await placed(db, ctx, dedupe(members))).map((p) => [p.id, p]));
  const items: DuplicateSet[] = rows.map((r) => ({
    sha256: r.sha256,
    size: r.size,
    count: r.n,
    freed: r.size * (r.n - 1),
    assets: members.filter((m) => m.sha256 === r.sha256).flatMap((m) => named.get(m.id) ?? []),
  }));
  return { total: totals?.total ?? 0, freed_total: totals?.freed_total ?? 0, items };
}

const dedupe = (rows: { id: string; name: string }[]) => [...new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }])).values()];
