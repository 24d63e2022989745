import { and, sql, type SQL } from "drizzle-orm";
import { fieldValueMatch } from "../fields/search";
import { type AccessContext, accessContext, requireAccess } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { idList, inAnySubtree, inSubtree, literal } from "../lib/sql";
import { prefixEnd } from "../tags/name-key";
import { buildTerm, FREQUENT_MIN_HITS, frequentAnswer, frequentExpr, termOf } from "./frequent";
import { catchUp } from "./indexer";
import { readableDocs } from "./readable";
import { BM25, type Match, parseQuery, snippet } from "./match";
import type { Embedder } from "./vector-types";
import type { SearchAnswer, SearchFacets, SearchFilters, SearchQueryBody } from "../../shared/search/schemas";

/**
 * POST /api/search/query (docs/decisions/045-search.md): the FTS5 match of the query's stems, ranked by bm25
 * with name hits weighed 10 and tag/taxon hits 5 against 1 for the rest, narrowed by the filters and by what
 * the caller can read — all in SQL, so the total and the facet counts are exact.
 */

const d = (col: string) => sql.raw(`d.${col}`);
const RANK = sql.raw(BM25);

const mimePrefix = (p: string) => {
  const start = p.includes("/") ? p : `${p}/`;
  return sql`(${d("mime")} >= ${literal(start)} AND ${d("mime")} < ${literal(prefixEnd(start))})`;
};

const between = (col: SQL, [from, to]: [number | null, number | null]) =>
  and(from === null ? undefined : sql`${col} >= ${from}`, to === null ? undefined : sql`${col} <= ${to}`) ?? sql`1`;

/** The filters as SQL over `d`; the group and taxa are looked up first (an unreadable group answers 404). */
export async function filterSql(db: Db, auth: AuthUser, f: SearchFilters | undefined): Promise<SQL[]> {
  if (!f) return [];
  const out: SQL[] = [];
  if (f.mime?.length) out.push(sql`(${sql.join(f.mime.map(mimePrefix), sql` OR `)})`);
  if (f.class?.length) out.push(sql`${d("class_id")} IN ${idList(f.class)}`);
  for (const tag of f.tags ?? [])
    out.push(sql`EXISTS (SELECT 1 FROM entity_tags ft WHERE ft.entity_id = ${d("el_id")} AND ft.tag_id = ${literal(tag)})`);
  if (f.taxon?.length) {
    const rows = await db.all<{ path: string }>(sql`SELECT path FROM taxa WHERE taxon_id IN ${idList(f.taxon)}`);
    out.push(sql`EXISTS (SELECT 1 FROM taxon_members fm JOIN taxa fx ON fx.taxon_id = fm.taxon_id
      WHERE fm.object_id = ${d("el_id")} AND ${inAnySubtree(
        sql.raw("fx.path"),
        rows.map((r) => r.path),
      )})`);
  }
  if (f.group) {
    const group = (await requireAccess(db, auth, "read", [f.group], { types: ["group"], notFound: "Группа не найдена" })).get(f.group);
    const path = group?.type === "group" ? group.path : "/";
    out.push(sql`(EXISTS (SELECT 1 FROM group_members fgm JOIN groups fg ON fg.group_id = fgm.group_id
        WHERE fgm.el_id = ${d("el_id")} AND fgm.el_type = 'asset' AND ${inSubtree(sql.raw("fg.path"), path)})
      OR EXISTS (SELECT 1 FROM groups fg2 WHERE fg2.group_id = ${d("el_id")} AND ${inSubtree(sql.raw("fg2.path"), path)}))`);
  }
  for (const [i, filter] of (f.fields ?? []).entries()) {
    const match = await fieldValueMatch(db, filter, `filters.fields.${i}.`);
    out.push(sql`EXISTS (SELECT 1 FROM field_values fv WHERE fv.entity_id = ${d("el_id")} AND ${match})`);
  }
  if (f.ctime) out.push(between(d("ctime"), f.ctime));
  if (f.size) out.push(between(d("size"), f.size));
  return out;
}

/** The page's order over the materialized hits `h`; a query without words has no rank, so newest first. */
const orderBy = (q: SearchQueryBody, ranked: boolean): SQL => {
  const sort = q.sort === "relevance" && !ranked ? "ctime" : q.sort;
  const dir = (fallback: "ASC" | "DESC") => sql.raw(q.order ? q.order.toUpperCase() : fallback);
  if (sort === "relevance") return sql`h.rank ${dir("ASC")}, h.doc_id`;
  if (sort === "name") return sql`h.sort_name ${dir("ASC")}, h.doc_id`;
  return sql`${sql.raw(`h.${sort}`)} ${dir("DESC")}, h.doc_id`;
};

interface Row {
  el_id: string;
  el_type: "asset" | "group";
  name: string;
  mime: string | null;
  size: number | null;
  ctime: number;
  body: string;
  preview: string | null;
}

/** The documents a query and its filters select, as FROM … WHERE … over `d` (and `m`, the FTS hits). */
async function selection(db: Db, auth: AuthUser, ctx: AccessContext, match: Match, filters: SearchFilters | undefined) {
  const where = await filterSql(db, auth, filters);
  // CROSS JOIN keeps the hits first: SQLite might otherwise walk every document and ask the index about each.
  const from = match.fts
    ? sql`(SELECT rowid AS doc_id, ${RANK} AS rank FROM search_fts WHERE search_fts MATCH ${match.fts}) m CROSS JOIN search_docs d ON d.doc_id = m.doc_id`
    : sql`search_docs d LEFT JOIN (SELECT NULL AS doc_id, NULL AS rank) m ON 0`;
  return { from, where: and(...where, readableDocs(ctx))! };
}

/**
 * `later` takes work to finish after the answer: a one-word search that finds FREQUENT_MIN_HITS documents builds
 * the word's index (./frequent.ts) there, and later searches for it read that instead of every hit.
 */
export async function runSearch(
  db: Db,
  auth: AuthUser,
  q: SearchQueryBody,
  embedder: Embedder | null,
  later: (work: Promise<unknown>) => void,
): Promise<SearchAnswer> {
  // A change is searchable at once: what its triggers marked is indexed before the query reads the index.
  await catchUp(db, embedder);
  const match = parseQuery(q.q);
  const expr = frequentExpr(q);
  const [ctx, term] = await Promise.all([accessContext(db, auth), expr ? termOf(db, expr) : undefined]);
  const fromIndex = expr !== null && term?.ready ? await frequentAnswer(db, ctx, term.term_id, q) : null;
  const { page, total, facets } =
    fromIndex ?? (await selectionCounts(db, await selection(db, auth, ctx, match, q.filters), orderBy(q, match.fts !== null), q));
  if (expr !== null && !term?.ready && total >= FREQUENT_MIN_HITS)
    later(buildTerm(db, expr).catch((error) => console.error("search frequent word:", error)));
  const previewOf = sql`(SELECT '/api/asset/content/preview/' || v.asset_id || '/' || v.version || '/' || v.variant_id FROM variants v
    WHERE v.asset_id = d.el_id AND v.preview_key IS NOT NULL AND v.version = (SELECT max(lv.version) FROM variants lv WHERE lv.asset_id = d.el_id) LIMIT 1)`;
  const found = page.length
    ? await db.all<Row>(sql`SELECT d.el_id, d.el_type, d.name, d.mime, d.size, d.ctime, d.body, ${previewOf} AS preview
        FROM search_docs d WHERE d.el_id IN ${idList(page.map((p) => p.id))}`)
    : [];
  const byId = new Map(found.map((r) => [r.el_id, r]));
  const rows = page.flatMap((p) => {
    const r = byId.get(p.id);
    return r ? [{ ...r, rank: p.rank }] : [];
  });
  return {
    total,
    items: rows.map((r) => ({
      el_id: r.el_id,
      el_type: r.el_type,
      name: r.name,
      score: r.rank === null ? 0 : Math.round(-r.rank * 1000) / 1000,
      snippet: snippet(r.name, r.body, match),
      ctime: r.ctime,
      ...(r.mime ? { mime: r.mime } : {}),
      ...(r.size !== null ? { size: r.size } : {}),
      ...(r.preview ? { preview: r.preview } : {}),
    })),
    facets,
  };
}

const FACET_TOP = 20;

/**
 * The page (ids and ranks, in order), the total and the counts of the selection by mime family, class, tag and
 * taxon (the taxa things are filed under directly), in one statement: the selection — the FTS hits the caller may
 * read, filtered — is materialized once and every part reads it, instead of each matching and access-checking every
 * hit again. CROSS JOIN starts each count from the hits: left to choose, SQLite would walk every tag and every
 * tagged thing to probe them. The parts nest in two compounds: D1 allows few terms in one.
 */
async function selectionCounts(db: Db, { from, where }: { from: SQL; where: SQL }, order: SQL, q: SearchQueryBody) {
  const top = (select: SQL) => sql`SELECT * FROM (${select} ORDER BY 4 DESC, 3 LIMIT ${literal(FACET_TOP)})`;
  const family = sql.raw("substr(h.mime, 1, instr(h.mime, '/') - 1)");
  const rows = await db.all<{
    facet: "page" | "total" | keyof SearchFacets;
    value: string | null;
    label: string | null;
    count: number;
    rank: number | null;
  }>(sql`
    WITH hits AS MATERIALIZED (SELECT d.doc_id, d.el_id, d.mime, d.class_id, d.sort_name, d.ctime, d.size, m.rank FROM ${from} WHERE ${where})
    SELECT * FROM (
      SELECT * FROM (SELECT 'page' AS facet, h.el_id AS value, NULL AS label, row_number() OVER (ORDER BY ${order}) AS count, h.rank AS rank
        FROM hits h ORDER BY ${order} LIMIT ${literal(q.take)} OFFSET ${literal(q.skip)})
      UNION ALL SELECT 'total', NULL, NULL, count(*), NULL FROM hits h
      UNION ALL ${top(sql`SELECT 'mime', ${family}, ${family}, count(*), NULL FROM hits h WHERE h.mime IS NOT NULL GROUP BY 2`)})
    UNION ALL ${top(sql`SELECT 'class', h.class_id, coalesce(c.name, h.class_id), count(*), NULL FROM hits h
      LEFT JOIN asset_classes c ON c.class_id = h.class_id WHERE h.class_id IS NOT NULL GROUP BY 2`)}
    UNION ALL ${top(sql`SELECT 'tags', t.tag_id, t.tag_name, count(*), NULL FROM hits h
      CROSS JOIN entity_tags et ON et.entity_id = h.el_id CROSS JOIN tags t ON t.tag_id = et.tag_id GROUP BY 2`)}
    UNION ALL ${top(sql`SELECT 'taxon', x.taxon_id, x.name, count(*), NULL FROM hits h
      CROSS JOIN taxon_members tm INDEXED BY taxon_members_object_idx ON tm.object_id = h.el_id CROSS JOIN taxa x ON x.taxon_id = tm.taxon_id GROUP BY 2`)}`);
  const page = rows
    .filter((r) => r.facet === "page")
    .sort((a, b) => a.count - b.count)
    .map((r) => ({ id: r.value ?? "", rank: r.rank }));
  const facets: SearchFacets = { mime: [], class: [], tags: [], taxon: [] };
  let total = 0;
  for (const r of rows) {
    if (r.facet === "total") total = r.count;
    else if (r.facet !== "page") facets[r.facet].push({ value: r.value ?? "", label: r.label ?? "", count: r.count });
  }
  return { page, total, facets };
}
