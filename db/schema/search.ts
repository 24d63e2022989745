import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/**
 * The search index (docs/decisions/045-search.md). One document per asset or group: what the answer shows
 * and filters on (name, mime, class, ctime, size) and the original text the snippet is cut from. Its stemmed
 * words live in the FTS5 table `search_fts` (rowid = doc_id), which drizzle cannot declare: the migration
 * creates it, with the triggers that mark documents dirty in the same transaction as the change.
 */
export const searchDocs = sqliteTable(
  "search_docs",
  {
    docId: integer("doc_id").primaryKey({ autoIncrement: true }),
    elId: text("el_id").notNull().unique(),
    elType: text("el_type", { enum: ["asset", "group"] }).notNull(),
    name: text("name").notNull(),
    /** The name folded (functions/search/text.ts fold): sorting by name ignores case and ё/е. */
    sortName: text("sort_name").notNull(),
    mime: text("mime"),
    classId: text("class_id"),
    ctime: unixTime("ctime").notNull(),
    size: integer("size"),
    /** Tags, taxon paths, text field values, tech words and document text, in the words people wrote. */
    body: text("body").notNull().default(""),
    /** The document's placement set (search_placement_sets), as of its last indexing: what its access depends on. */
    psId: integer("ps_id"),
  },
  (t) => [index("search_docs_ctime_idx").on(t.ctime), index("search_docs_ps_idx").on(t.psId)],
);

/**
 * Documents to (re)build: written by triggers in the change's own transaction, emptied by the indexer
 * (functions/search/indexer.ts). `mark` grows with every new change, so the indexer deletes only the marks it
 * has read: a change that lands while it works stays dirty.
 */
export const searchDirty = sqliteTable("search_dirty", {
  elId: text("el_id").primaryKey(),
  elType: text("el_type").notNull(),
  mark: integer("mark").notNull().default(1),
});

/**
 * Every word of names, tags and taxa, folded: the autocomplete's typo tolerance looks words up by trigram in
 * `search_words` (FTS5, trigram tokenizer, filled from here by a trigger).
 */
export const searchVocab = sqliteTable("search_vocab", {
  wordId: integer("word_id").primaryKey({ autoIncrement: true }),
  word: text("word").notNull().unique(),
});

/** Document text the transcoder extracted from a variant (PDF, DOCX, ODT, TXT), indexed with the asset. */
export const searchTexts = sqliteTable("search_texts", {
  assetId: text("asset_id").primaryKey(),
  variantId: text("variant_id").notNull(),
  text: text("text").notNull(),
  ctime: unixTime("ctime").notNull(),
});

/**
 * Embeddings for semantic search when a model is configured and no Vectorize index is bound
 * (functions/search/vector.ts). `list` is the vector's inverted list in the IVF index (functions/search/ivf.ts,
 * docs/decisions/051-search-at-scale.md): null until the index assigns it, and a null-list vector is always read.
 */
export const searchVectors = sqliteTable(
  "search_vectors",
  {
    elId: text("el_id").primaryKey(),
    model: text("model").notNull(),
    vec: blob("vec", { mode: "buffer" }).notNull(),
    ctime: unixTime("ctime").notNull().default(sql`(unixepoch())`),
    list: integer("list"),
    /** The vector as signed bytes times `scale` (functions/search/ivf.ts quantize): what a query ranks candidates by. */
    vec8: blob("vec8", { mode: "buffer" }),
    scale: real("scale"),
  },
  (t) => [index("search_vectors_list_idx").on(t.model, t.list)],
);

/**
 * The IVF index's centroids, one row per inverted list of a model's vectors (k-means over a sample).
 * `trainedOn`: how many vectors the model had when they were trained (the cron retrains when that has doubled).
 */
export const searchVectorLists = sqliteTable(
  "search_vector_lists",
  {
    model: text("model").notNull(),
    list: integer("list").notNull(),
    centroid: blob("centroid", { mode: "buffer" }).notNull(),
    trainedOn: integer("trained_on").notNull(),
  },
  (t) => [primaryKey({ columns: [t.model, t.list] })],
);

/*
 * The frequent-word index (functions/search/frequent.ts, docs/decisions/052-frequent-words.md): for a one-word
 * query matching thousands of documents, its postings in bm25 order and its counts per placement set and facet
 * value, kept in step by the indexer, so the answer reads a page and a few counts instead of every hit.
 */

/**
 * What a document's access depends on, when the caller has no rule on single assets: the groups an asset is
 * placed in (`key` "g:" and their sorted ids), the owner of an unplaced asset ("o:" id), a group itself ("s:" id).
 * `repId` is a document with this set: asking the access engine about it answers for the whole set.
 */
export const searchPlacementSets = sqliteTable("search_placement_sets", {
  psId: integer("ps_id").primaryKey({ autoIncrement: true }),
  key: text("key").notNull().unique(),
  repId: text("rep_id"),
});

/** The facet values of a document with postings ("total" with "" for the document itself), as its counts added them. */
export const searchDocFacets = sqliteTable(
  "search_doc_facets",
  {
    docId: integer("doc_id").notNull(),
    facet: text("facet").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.docId, t.facet, t.value] })],
);

/**
 * Words with their own postings: `expr` is the FTS5 expression a one-word query parses to; ready once built.
 * `scoredAt`: when the postings' bm25 was last computed over the whole index (a build, or the cron's rescoring).
 */
export const searchFrequentTerms = sqliteTable("search_frequent_terms", {
  termId: integer("term_id").primaryKey({ autoIncrement: true }),
  expr: text("expr").notNull().unique(),
  ready: integer("ready").notNull().default(0),
  scoredAt: unixTime("scored_at").notNull().default(sql`(unixepoch())`),
});

/** The documents a frequent word matches, with their bm25 (lower is better) as of their indexing. */
export const searchTermPostings = sqliteTable(
  "search_term_postings",
  {
    termId: integer("term_id").notNull(),
    docId: integer("doc_id").notNull(),
    psId: integer("ps_id").notNull(),
    impact: real("impact").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.termId, t.docId] }),
    index("search_term_postings_impact_idx").on(t.termId, t.impact, t.docId, t.psId),
    index("search_term_postings_doc_idx").on(t.docId),
  ],
);

/** How many documents a frequent word matches per placement set and facet value. */
export const searchTermCounts = sqliteTable(
  "search_term_counts",
  {
    termId: integer("term_id").notNull(),
    psId: integer("ps_id").notNull(),
    facet: text("facet").notNull(),
    value: text("value").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.termId, t.psId, t.facet, t.value] })],
);
