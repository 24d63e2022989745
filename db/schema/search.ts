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
  },
  (t) => [index("search_docs_ctime_idx").on(t.ctime)],
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
