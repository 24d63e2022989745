import { sql } from "drizzle-orm";
import type { AccessContext } from "../lib/access";
import type { Db } from "../lib/db";
import { type RawStatement, rawBatch, rawStatement } from "../lib/sql";
import type { SourceDoc } from "./documents";
import { BM25, type Hits, isHitStem, parseQuery } from "./match";
import { readableDocs } from "./readable";
import type { SearchFacets, SearchQueryBody } from "./schemas";

/**
 * The frequent-word index (docs/decisions/052-frequent-words.md). A one-word query whose word is in thousands of
 * documents would have FTS5 score every hit, the access filter probe every hit and four facets count every hit.
 * For such a word this keeps its postings in bm25 order and its counts per placement set and facet value; the
 * answer then asks the access engine about the few placement sets, sums their counts, and reads the page off the
 * top of the postings. A word gets its index the first time a search finds it in FREQUENT_MIN_HITS readable
 * documents; from then on the indexer keeps it in step, in the batch of each change. A posting's bm25 is the one
 * FTS5 gave when it was written; the cron computes a word's again once a day, as the index's statistics move.
 */

/** Hits from which a one-word search builds the word's index: below it the FTS path answers within its aim. */
export const FREQUENT_MIN_HITS = 2000;
/** Deeper pages than this (skip + take) are answered by the FTS path. */
const MAX_DEPTH = 500;

export interface FrequentTerm {
  termId: number;
  hits: Hits;
}

/**
 * The expression a query is answered from by this index, or null: one word (no phrase), no filters, by relevance
 * best first, not too deep.
 */
export function frequentExpr(q: SearchQueryBody): string | null {
  const filtered = Object.values(q.filters ?? {}).some((v) => v !== undefined && (!Array.isArray(v) || v.length > 0));
  if (filtered || q.sort !== "relevance" || q.order === "desc" || q.skip + q.take > MAX_DEPTH || q.q.includes('"')) return null;
  const { fts } = parseQuery(q.q);
  return fts && !fts.includes(" AND ") ? fts : null;
}

/** The stems and prefixes an expression of frequentExpr matches: `"s"` a stem, `"s"*` a prefix. */
function hitsOf(expr: string): Hits {
  const hits: Hits = { stems: new Set(), prefixes: [] };
  for (const [, word, star] of expr.matchAll(/"([^"]+)"(\*)?/g)) {
    if (star) hits.prefixes.push(word);
    else hits.stems.add(word);
  }
  return hits;
}

export async function readyTerms(db: Db): Promise<FrequentTerm[]> {
  const rows = await db.all<{ term_id: number; expr: string }>(sql`SELECT term_id, expr FROM search_frequent_terms WHERE ready = 1`);
  return rows.map((r) => ({ termId: r.term_id, hits: hitsOf(r.expr) }));
}

/**
 * Stores the facet values (as the FTS path counts them: mime family, class, tags, taxa filed under directly, and
 * "total") of the documents `docs` (a SELECT of doc_id, binding `args`) that have postings and none stored yet:
 * what their counts are made of, until they are indexed again.
 */
const storeFacets = (docs: string, ...args: RawStatement["args"]) =>
  rawStatement(
    `INSERT OR IGNORE INTO search_doc_facets (doc_id, facet, value)
      WITH fresh AS MATERIALIZED (SELECT d.doc_id, d.el_id, d.mime, d.class_id FROM search_docs d WHERE d.doc_id IN (${docs})
        AND EXISTS (SELECT 1 FROM search_term_postings p WHERE p.doc_id = d.doc_id)
        AND NOT EXISTS (SELECT 1 FROM search_doc_facets f WHERE f.doc_id = d.doc_id))
      SELECT doc_id, 'total', '' FROM fresh
      UNION ALL SELECT doc_id, 'mime', substr(mime, 1, instr(mime, '/') - 1) FROM fresh WHERE mime IS NOT NULL
      UNION ALL SELECT doc_id, 'class', class_id FROM fresh WHERE class_id IS NOT NULL
      UNION ALL SELECT f.doc_id, 'tags', t.tag_id FROM fresh f CROSS JOIN entity_tags et ON et.entity_id = f.el_id CROSS JOIN tags t ON t.tag_id = et.tag_id
      UNION ALL SELECT f.doc_id, 'taxon', x.taxon_id FROM fresh f
        CROSS JOIN taxon_members tm INDEXED BY taxon_members_object_idx ON tm.object_id = f.el_id CROSS JOIN taxa x ON x.taxon_id = tm.taxon_id`,
    ...args,
  );

const chunkDocs = "SELECT doc_id FROM search_docs WHERE el_id IN (SELECT value FROM json_each(?))";

/** Adds (+) or takes out (−) the counts of the documents `ids` for the postings they have now. */
const countsOf = (sign: "+" | "-", ids: string) =>
  rawStatement(
    `INSERT INTO search_term_counts (term_id, ps_id, facet, value, count)
      SELECT p.term_id, p.ps_id, f.facet, f.value, ${sign}count(*) FROM search_term_postings p JOIN search_doc_facets f ON f.doc_id = p.doc_id
      WHERE p.doc_id IN (${chunkDocs}) GROUP BY 1, 2, 3, 4
      ON CONFLICT (term_id, ps_id, facet, value) DO UPDATE SET count = count + excluded.count`,
    ids,
  );

/**
 * Before the indexer rewrites the documents `elIds`: their contribution leaves the counts, with their postings and
 * facet values (a deleted document's, by the trigger on search_docs), and their placement sets are recorded.
 */
export function beforeWrite(elIds: string[], docs: SourceDoc[]): RawStatement[] {
  const ids = JSON.stringify(elIds);
  return [
    countsOf("-", ids),
    rawStatement(`DELETE FROM search_term_postings WHERE doc_id IN (${chunkDocs})`, ids),
    rawStatement(`DELETE FROM search_doc_facets WHERE doc_id IN (${chunkDocs})`, ids),
    rawStatement(
      `INSERT INTO search_placement_sets (key, rep_id) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true
        ON CONFLICT (key) DO UPDATE SET rep_id = excluded.rep_id`,
      JSON.stringify(docs.map((d) => [d.placement, d.elId])),
    ),
  ];
}

/**
 * After the documents are written: a set whose representative left it gets another, the documents' postings of the
 * ready words and (for those with any) their facet values are stored, and their counts added. Which words a
 * document holds is found here from the stems it was indexed with (`stemmed`: its search_fts columns by el_id), and
 * confirmed by FTS5 (which also gives the bm25); a word that became ready since `terms` was read is tried on every
 * document of the chunk.
 */
export function afterWrite(elIds: string[], stemmed: Map<string, string[]>, terms: FrequentTerm[]): RawStatement[] {
  const ids = JSON.stringify(elIds);
  const pairs: [string, number][] = [];
  for (const [elId, columns] of terms.length ? stemmed : []) {
    const stems = new Set(columns.flatMap((c) => c.split(" ")));
    for (const t of terms) if ([...stems].some((s) => isHitStem(s, t.hits))) pairs.push([elId, t.termId]);
  }
  return [
    rawStatement(
      `UPDATE search_placement_sets SET rep_id = (SELECT d.el_id FROM search_docs d WHERE d.ps_id = search_placement_sets.ps_id LIMIT 1)
        WHERE rep_id IN (SELECT value FROM json_each(?))
          AND NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.el_id = search_placement_sets.rep_id AND d.ps_id = search_placement_sets.ps_id)`,
      ids,
    ),
    rawStatement(
      `INSERT INTO search_term_postings (term_id, doc_id, ps_id, impact)
        SELECT t.term_id, d.doc_id, d.ps_id, ${BM25}
        FROM (SELECT json_extract(value, '$[0]') AS el_id, json_extract(value, '$[1]') AS term_id FROM json_each(?)
          UNION SELECT c.value, n.term_id FROM json_each(?) c CROSS JOIN search_frequent_terms n
            WHERE n.ready = 1 AND n.term_id NOT IN (SELECT value FROM json_each(?))) c
        CROSS JOIN search_frequent_terms t ON t.term_id = c.term_id AND t.ready = 1
        CROSS JOIN search_docs d ON d.el_id = c.el_id
        CROSS JOIN search_fts ON search_fts.rowid = d.doc_id
        WHERE search_fts MATCH t.expr`,
      JSON.stringify(pairs),
      ids,
      JSON.stringify(terms.map((t) => t.termId)),
    ),
    storeFacets(chunkDocs, ids),
    countsOf("+", ids),
  ];
}

/**
 * Builds a word's index from the FTS index, in one batch; a no-op when it is built (or being built by a batch
 * that committed first), or while some document has not been indexed with its placement set yet. `rescore`
 * builds a ready word's index again, in the same batch as dropping the old one: every posting's bm25 is then of
 * the index as it is now.
 */
export async function buildTerm(db: Db, expr: string, { rescore = false } = {}): Promise<void> {
  const allPlaced = "NOT EXISTS (SELECT 1 FROM search_docs WHERE ps_id IS NULL)";
  const unbuilt = `(SELECT ready FROM search_frequent_terms WHERE expr = ?) = 0 AND ${allPlaced}`;
  const termId = "(SELECT term_id FROM search_frequent_terms WHERE expr = ?)";
  const drop = rescore
    ? [
        rawStatement(`DELETE FROM search_term_counts WHERE term_id = ${termId} AND ${allPlaced}`, expr),
        rawStatement(`DELETE FROM search_term_postings WHERE term_id = ${termId} AND ${allPlaced}`, expr),
        rawStatement(`UPDATE search_frequent_terms SET ready = 0 WHERE expr = ? AND ${allPlaced}`, expr),
      ]
    : [];
  await rawBatch(db, [
    ...drop,
    rawStatement("INSERT INTO search_frequent_terms (expr) VALUES (?) ON CONFLICT (expr) DO NOTHING", expr),
    rawStatement(
      `INSERT INTO search_term_postings (term_id, doc_id, ps_id, impact)
        SELECT ${termId}, d.doc_id, d.ps_id, ${BM25}
        FROM search_fts CROSS JOIN search_docs d ON d.doc_id = search_fts.rowid WHERE search_fts MATCH ? AND ${unbuilt}`,
      expr,
      expr,
      expr,
    ),
    storeFacets(`SELECT p.doc_id FROM search_term_postings p WHERE p.term_id = ${termId}`, expr),
    rawStatement(
      `INSERT INTO search_term_counts (term_id, ps_id, facet, value, count)
        SELECT p.term_id, p.ps_id, f.facet, f.value, count(*) FROM search_term_postings p JOIN search_doc_facets f ON f.doc_id = p.doc_id
        WHERE p.term_id = ${termId} AND ${unbuilt} GROUP BY 1, 2, 3, 4
        ON CONFLICT (term_id, ps_id, facet, value) DO UPDATE SET count = count + excluded.count`,
      expr,
      expr,
    ),
    rawStatement(`UPDATE search_frequent_terms SET ready = 1, scored_at = unixepoch() WHERE expr = ? AND ready = 0 AND ${allPlaced}`, expr),
  ]);
}

/** How old a word's scores may grow before the cron computes them again: the index's statistics drift with it. */
const RESCORE_AFTER_SECONDS = 24 * 3600;

/** The cron's part: words scored longest ago (a few a run) get their bm25 of the index as it is now. */
export async function rescoreFrequentTerms(db: Db, now: number, limit = 4): Promise<void> {
  const due = await db.all<{ expr: string }>(
    sql`SELECT expr FROM search_frequent_terms WHERE ready = 1 AND scored_at < ${now - RESCORE_AFTER_SECONDS} ORDER BY scored_at LIMIT ${limit}`,
  );
  for (const { expr } of due) await buildTerm(db, expr, { rescore: true });
}

export async function termOf(db: Db, expr: string) {
  return db.get<{ term_id: number; ready: number }>(sql`SELECT term_id, ready FROM search_frequent_terms WHERE expr = ${expr}`);
}

const FACET_TOP = 20;

/**
 * The answer from a ready word's index: the same total and facets the FTS path gives, for a caller whose access
 * depends only on placement sets (no rule on a single asset: those callers take the FTS path), and the page off the
 * top of the postings the caller may read, ranked by their stored bm25. Only while no document waits to be indexed
 * again: a waiting document's postings still carry the placement set it had (an asset moved out of a group the
 * caller reads would still be found through it), so then the FTS path answers, which checks today's placements.
 */
export async function frequentAnswer(db: Db, ctx: AccessContext, termId: number, q: SearchQueryBody) {
  if (ctx.assetGrants.size || ctx.assetDenies.size) return null;
  if (await db.get(sql`SELECT 1 AS x FROM search_dirty LIMIT 1`)) return null;
  const sets = sql`sets AS MATERIALIZED (SELECT p.ps_id FROM search_term_counts c
    CROSS JOIN search_placement_sets p ON p.ps_id = c.ps_id CROSS JOIN search_docs d ON d.el_id = p.rep_id
    WHERE c.term_id = ${termId} AND c.facet = 'total' AND c.value = '' AND c.count > 0 AND ${readableDocs(ctx)})`;
  const [counts, page] = await Promise.all([
    db.all<{ facet: "total" | keyof SearchFacets; value: string; label: string; count: number }>(sql`
      WITH ${sets},
        counts AS MATERIALIZED (SELECT facet, value, sum(count) AS n FROM search_term_counts
          WHERE term_id = ${termId} AND ps_id IN (SELECT ps_id FROM sets) GROUP BY 1, 2 HAVING n > 0),
        labelled AS (SELECT c.facet, c.value, CASE c.facet WHEN 'class' THEN coalesce(ac.name, c.value) WHEN 'tags' THEN t.tag_name
            WHEN 'taxon' THEN x.name ELSE c.value END AS label, c.n
          FROM counts c LEFT JOIN asset_classes ac ON c.facet = 'class' AND ac.class_id = c.value
          LEFT JOIN tags t ON c.facet = 'tags' AND t.tag_id = c.value LEFT JOIN taxa x ON c.facet = 'taxon' AND x.taxon_id = c.value
          WHERE c.facet IN ('total', 'mime', 'class') OR t.tag_id IS NOT NULL OR x.taxon_id IS NOT NULL)
      SELECT facet, value, label, n AS count FROM (
        SELECT *, row_number() OVER (PARTITION BY facet ORDER BY n DESC, label) AS k FROM labelled) WHERE k <= ${sql.raw(String(FACET_TOP))}
      ORDER BY facet, k`),
    db.all<{ id: string; rank: number | null }>(sql`WITH ${sets} SELECT d.el_id AS id, p.impact AS rank
      FROM (SELECT doc_id, impact FROM search_term_postings WHERE term_id = ${termId} AND ps_id IN (SELECT ps_id FROM sets)
        ORDER BY impact, doc_id LIMIT ${q.take} OFFSET ${q.skip}) p CROSS JOIN search_docs d ON d.doc_id = p.doc_id ORDER BY p.impact, p.doc_id`),
  ]);
  const facets: SearchFacets = { mime: [], class: [], tags: [], taxon: [] };
  let total = 0;
  for (const r of counts) {
    if (r.facet === "total") total = r.count;
    else facets[r.facet].push({ value: r.value, label: r.label ?? "", count: r.count });
  }
  return { total, facets, page };
}
