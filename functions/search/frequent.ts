import { sql } from "drizzle-orm";
import type { AccessContext } from "../lib/access";
import type { Db } from "../lib/db";
import { type RawStatement, rawBatch, literal } from "../lib/sql";
import type { SourceDoc } from "./documents";
import { type Hits, isHitStem, parseQuery } from "./match";
import { readableDocs } from "./readable";
import type { SearchFacets, SearchQueryBody } from "../../shared/search/schemas";
import { buildTermStatements, frequentAfterWrite, frequentBeforeWrite } from "./sql";

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
 * Before the indexer rewrites the documents `elIds`: their contribution leaves the counts, with their postings and
 * facet values (a deleted document's, by the trigger on search_docs), and their placement sets are recorded.
 */
export function beforeWrite(elIds: string[], docs: SourceDoc[]): RawStatement[] {
  return frequentBeforeWrite(JSON.stringify(elIds), JSON.stringify(docs.map((d) => [d.placement, d.elId])));
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
  return frequentAfterWrite(ids, JSON.stringify(pairs), JSON.stringify(terms.map((t) => t.termId)));
}

/**
 * Builds a word's index from the FTS index, in one batch; a no-op when it is built (or being built by a batch
 * that committed first), or while some document has not been indexed with its placement set yet. `rescore`
 * builds a ready word's index again, in the same batch as dropping the old one: every posting's bm25 is then of
 * the index as it is now.
 */
export async function buildTerm(db: Db, expr: string, { rescore = false } = {}): Promise<void> {
  await rawBatch(db, buildTermStatements(expr, rescore));
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
        SELECT *, row_number() OVER (PARTITION BY facet ORDER BY n DESC, label) AS k FROM labelled) WHERE k <= ${literal(FACET_TOP)}
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
