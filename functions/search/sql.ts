import { type RawStatement, rawStatement } from "../lib/sql";
import type { SourceDoc } from "./documents";
import { BM25 } from "./match";
import { SEGMENT_SPAN } from "./transcript-hits";

/**
 * The search index's write statements, in one place (docs/decisions/065-one-sql-toolkit.md): the documents and
 * their words (./indexer.ts), the frequent-word index (./frequent.ts) and the vectors (./vector.ts,
 * ./vector-lists.ts). All are bound statements for lib/sql.ts rawBatch: a document's text is far beyond what may
 * be inlined into one statement, vectors are blobs, and drizzle's D1 batch cannot bind values of raw SQL.
 */

type Args = RawStatement["args"];

// ── Documents (./indexer.ts) ──

/** The document's row (`sortName` and `body` made by the indexer), its placement set found by its key. */
export const upsertDoc = (d: SourceDoc, sortName: string, body: string) =>
  rawStatement(
    `INSERT INTO search_docs (el_id, el_type, name, sort_name, mime, class_id, ctime, size, body, ps_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT ps_id FROM search_placement_sets WHERE key = ?))
        ON CONFLICT (el_id) DO UPDATE SET el_type = excluded.el_type, name = excluded.name, sort_name = excluded.sort_name, mime = excluded.mime,
          class_id = excluded.class_id, ctime = excluded.ctime, size = excluded.size, body = excluded.body, ps_id = excluded.ps_id`,
    d.elId,
    d.elType,
    d.name,
    sortName,
    d.mime,
    d.classId,
    d.ctime,
    d.size,
    body,
    d.placement,
  );

/** The document's stemmed columns (name, tags, body) in search_fts, under its doc_id. */
export const insertFts = (columns: string[], elId: string) =>
  rawStatement(
    "INSERT INTO search_fts (rowid, name, tags, body) SELECT doc_id, ?, ?, ? FROM search_docs WHERE el_id = ?",
    ...columns,
    elId,
  );

export const dropFts = (elId: string) =>
  rawStatement("DELETE FROM search_fts WHERE rowid = (SELECT doc_id FROM search_docs WHERE el_id = ?)", elId);

export const dropDoc = (elId: string) => rawStatement("DELETE FROM search_docs WHERE el_id = ?", elId);

/** The mark the indexer read; one raised again meanwhile has another number and stays. */
export const clearDirty = (elId: string, mark: number) => rawStatement("DELETE FROM search_dirty WHERE el_id = ? AND mark = ?", elId, mark);

/** The document's segments (rowids from doc_id × SEGMENT_SPAN, ./transcript-hits.ts), all of them. */
export function dropSegments(elId: string) {
  const range = `(SELECT doc_id FROM search_docs WHERE el_id = ?) * ${SEGMENT_SPAN}`;
  return rawStatement(`DELETE FROM search_segments WHERE rowid >= ${range} AND rowid < ${range} + ${SEGMENT_SPAN}`, elId, elId);
}

/** Segments from number `first` on, as one JSON array of [stems, start, text]. */
export const insertSegments = (elId: string, first: number, chunk: string) =>
  rawStatement(
    `INSERT INTO search_segments (rowid, stems, start, text)
          SELECT d.doc_id * ${SEGMENT_SPAN} + ? + s.key, json_extract(s.value, '$[0]'), json_extract(s.value, '$[1]'), json_extract(s.value, '$[2]')
          FROM search_docs d, json_each(?) s WHERE d.el_id = ?`,
    first,
    chunk,
    elId,
  );

/** Words for the autocomplete, at most 100 (D1 binds at most 100 values a statement). */
export const insertVocab = (words: string[]) =>
  rawStatement(`INSERT INTO search_vocab (word) VALUES ${words.map(() => "(?)").join(", ")} ON CONFLICT (word) DO NOTHING`, ...words);

// ── The frequent-word index (./frequent.ts) ──

/** The doc_ids of the documents whose el_ids are the bound JSON array. */
const chunkDocs = "SELECT doc_id FROM search_docs WHERE el_id IN (SELECT value FROM json_each(?))";

/**
 * Stores the facet values (as the FTS path counts them: mime family, class, tags, taxa filed under directly, and
 * "total") of the documents `docs` (a SELECT of doc_id, binding `args`) that have postings and none stored yet:
 * what their counts are made of, until they are indexed again.
 */
const storeFacets = (docs: string, ...args: Args) =>
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

/** Adds (+) or takes out (−) the counts of the documents `ids` (a JSON array of el_ids) for the postings they have now. */
const countsOf = (sign: "+" | "-", ids: string) =>
  rawStatement(
    `INSERT INTO search_term_counts (term_id, ps_id, facet, value, count)
      SELECT p.term_id, p.ps_id, f.facet, f.value, ${sign}count(*) FROM search_term_postings p JOIN search_doc_facets f ON f.doc_id = p.doc_id
      WHERE p.doc_id IN (${chunkDocs}) GROUP BY 1, 2, 3, 4
      ON CONFLICT (term_id, ps_id, facet, value) DO UPDATE SET count = count + excluded.count`,
    ids,
  );

/**
 * Before the documents `ids` (a JSON array of el_ids) are written again: their counts, postings and facet values
 * go, and the placement sets `placements` (a JSON array of [key, el_id]) are recorded.
 */
export const frequentBeforeWrite = (ids: string, placements: string) => [
  countsOf("-", ids),
  rawStatement(`DELETE FROM search_term_postings WHERE doc_id IN (${chunkDocs})`, ids),
  rawStatement(`DELETE FROM search_doc_facets WHERE doc_id IN (${chunkDocs})`, ids),
  rawStatement(
    `INSERT INTO search_placement_sets (key, rep_id) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true
        ON CONFLICT (key) DO UPDATE SET rep_id = excluded.rep_id`,
    placements,
  ),
];

/**
 * After the documents `ids` are written: sets whose representative left get another, the postings of `pairs` (a
 * JSON array of [el_id, term_id]) and of every ready word not in `termIds` (a JSON array) are stored when FTS5
 * confirms them, then the documents' facet values and their counts.
 */
export const frequentAfterWrite = (ids: string, pairs: string, termIds: string) => [
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
    pairs,
    ids,
    termIds,
  ),
  storeFacets(chunkDocs, ids),
  countsOf("+", ids),
];

/**
 * A word's index built from the FTS index, as one batch; each statement is a no-op when it is built (or being built
 * by a batch that committed first), or while some document has no placement set yet. `rescore` first drops a ready
 * word's index, so every posting's bm25 is of the index as it is now.
 */
export function buildTermStatements(expr: string, rescore: boolean): RawStatement[] {
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
  return [
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
  ];
}

// ── Vectors (./vector.ts, ./vector-lists.ts) ──

/** A document's vector (a blob) with its list and its quantized copy (a blob and its scale). */
export const upsertVector = (elId: string, model: string, vec: Uint8Array, list: number | null, vec8: Uint8Array, scale: number) =>
  rawStatement(
    `INSERT INTO search_vectors (el_id, model, vec, list, vec8, scale) VALUES (?, ?, ?, ?, ?, ?)
              ON CONFLICT (el_id) DO UPDATE SET model = excluded.model, vec = excluded.vec, list = excluded.list,
                vec8 = excluded.vec8, scale = excluded.scale, ctime = unixepoch()`,
    elId,
    model,
    vec,
    list,
    vec8,
    scale,
  );

/** Files vectors (their rowids: numbers from the database, so inlined) in a list. */
export const fileInList = (list: number, rowids: number[]) =>
  rawStatement(`UPDATE search_vectors SET list = ? WHERE rowid IN (${rowids.join(", ")})`, list);

/** A model's centroids replaced by `centroids` (blobs), all its vectors unfiled until they are filed again. */
export const replaceCentroids = (model: string, centroids: Uint8Array[], trainedOn: number) => [
  rawStatement("DELETE FROM search_vector_lists WHERE model = ?", model),
  ...centroids.map((centroid, list) =>
    rawStatement(
      "INSERT INTO search_vector_lists (model, list, centroid, trained_on) VALUES (?, ?, ?, ?)",
      model,
      list,
      centroid,
      trainedOn,
    ),
  ),
  rawStatement("UPDATE search_vectors SET list = NULL WHERE model = ?", model),
];

export const setQuantized = (rowid: number, vec8: Uint8Array, scale: number) =>
  rawStatement("UPDATE search_vectors SET vec8 = ?, scale = ? WHERE rowid = ?", vec8, scale, rowid);
