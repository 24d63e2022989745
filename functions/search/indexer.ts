import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { type RawStatement, rawBatch } from "../lib/sql";
import { loadSources, type SourceDoc } from "./documents";
import { afterWrite, beforeWrite, readyTerms } from "./frequent";
import { clearDirty, dropDoc, dropFts, dropSegments, insertFts, insertSegments, insertVocab, upsertDoc } from "./sql";
import { fold, stemText, words } from "./text";
import { SEGMENT_SPAN } from "./transcript-hits";
import { embeddingText, storeVectors } from "./vector";
import type { Embedder } from "./vector-types";

/**
 * Brings dirty search documents up to date (docs/decisions/045-search.md). Triggers mark a document dirty
 * in the transaction of the change; this reads the marks, rebuilds those documents from their sources and,
 * in one batch, replaces their rows in search_docs and search_fts and removes the marks it read — a mark
 * raised again meanwhile stays, so the next run picks the newer change up.
 */

/** Documents per batch: four statements each keeps a batch well within D1's limits. */
const CHUNK = 100;

/**
 * The text shown in snippets, in the order it is weighed: tags, taxon paths, field values, tech, document. Not the
 * transcript: a hit in it takes its snippet from the segment (./transcript-hits.ts), and scanning a long
 * transcript line by line for the snippet of every item on a page cost more than the search.
 */
const bodyOf = (d: SourceDoc) => [...d.tags, ...d.taxa, ...d.fields, ...d.tech, d.text].filter(Boolean).join("\n");

/** What a model embeds: the body with the transcript, which is what the asset says. */
const meaningOf = (d: SourceDoc) =>
  [...d.tags, ...d.taxa, ...d.fields, ...d.transcript.map((s) => s.text), ...d.tech, d.text].filter(Boolean).join("\n");

/** Words of names, tags and taxa for the autocomplete's trigram lookup: letters only, three or more. */
const vocabOf = (d: SourceDoc) => [d.name, ...d.tags, ...d.taxa].flatMap(words).filter((w) => w.length >= 3 && /^\p{L}+$/u.test(w));

/**
 * A document's stemmed words as search_fts's columns: name, tags (and taxa), body; and its transcript's segments
 * stemmed one by one (search_segments), which the body column holds too: a transcript is time-coded text like a
 * text field's time-coded values, and is weighed with them.
 */
const stemmedOf = (d: SourceDoc) => {
  const segments = d.transcript.map((s) => stemText(s.text));
  const columns = [
    stemText(d.name),
    stemText([...d.tags, ...d.taxa].join(" ")),
    [stemText([...d.fields, ...d.tech, d.text].join(" ")), ...segments].join(" "),
  ];
  return { columns, segments };
};

/** Segments a statement: a bound JSON value of this many stays far below D1's 2 MB for a value. */
const SEGMENTS_PER_STATEMENT = 1000;

/**
 * The document's segments in search_segments (rowids from doc_id × SEGMENT_SPAN, ./transcript-hits.ts): its old
 * ones removed, its current ones written, each statement's segments one bound JSON array.
 */
function writeSegments(d: SourceDoc, stems: string[]): RawStatement[] {
  const out = [dropSegments(d.elId)];
  const segments = d.transcript.slice(0, SEGMENT_SPAN);
  for (let i = 0; i < segments.length; i += SEGMENTS_PER_STATEMENT) {
    const chunk = segments.slice(i, i + SEGMENTS_PER_STATEMENT).map((s, j) => [stems[i + j], s.start, s.text]);
    out.push(insertSegments(d.elId, i, JSON.stringify(chunk)));
  }
  return out;
}

/** The document's rows: search_docs, search_fts and (for an asset) its segments; the statements are in ./sql.ts. */
function writeDoc(d: SourceDoc, { columns, segments }: ReturnType<typeof stemmedOf>): RawStatement[] {
  return [upsertDoc(d, fold(d.name), bodyOf(d)), insertFts(columns, d.elId), ...(d.elType === "asset" ? writeSegments(d, segments) : [])];
}

function vocabInserts(docs: SourceDoc[]): RawStatement[] {
  const all = [...new Set(docs.flatMap(vocabOf))];
  const out = [];
  // D1 binds at most 100 values a statement.
  for (let i = 0; i < all.length; i += 100) out.push(insertVocab(all.slice(i, i + 100)));
  return out;
}

/**
 * Indexes up to `limit` dirty documents; returns how many marks it cleared. With an embedder, their vectors are
 * refreshed too (after the batch: a model that fails leaves the keyword index current).
 */
export async function flushSearchIndex(db: Db, limit = 500, embedder: Embedder | null = null): Promise<number> {
  let done = 0;
  while (done < limit) {
    const dirty = await db.all<{ el_id: string; mark: number }>(
      sql`SELECT el_id, mark FROM search_dirty LIMIT ${Math.min(CHUNK, limit - done)}`,
    );
    if (dirty.length === 0) break;
    const ids = dirty.map((d) => d.el_id);
    const [sources, terms] = await Promise.all([loadSources(db, ids), readyTerms(db)]);
    const docs = [...sources.values()];
    const stemmed = new Map(docs.map((d) => [d.elId, stemmedOf(d)]));
    // The frequent-word index (./frequent.ts) moves with the documents, in the same batch.
    const statements: RawStatement[] = beforeWrite(ids, docs);
    for (const { el_id, mark } of dirty) {
      statements.push(dropFts(el_id));
      const doc = sources.get(el_id);
      const parts = stemmed.get(el_id);
      statements.push(...(doc && parts ? writeDoc(doc, parts) : [dropDoc(el_id)]));
      statements.push(clearDirty(el_id, mark));
    }
    statements.push(...afterWrite(ids, new Map([...stemmed].map(([id, p]) => [id, p.columns])), terms), ...vocabInserts(docs));
    await rawBatch(db, statements);
    if (embedder)
      await storeVectors(
        db,
        embedder,
        docs.map((d) => ({ elId: d.elId, text: embeddingText(d.name, meaningOf(d)) })),
      ).catch((error) => console.error("search vectors:", error));
    done += dirty.length;
    if (dirty.length < CHUNK) break;
  }
  return done;
}

/**
 * Before a search reads the index: index what waits, so a change is found by the next query. Asking costs one
 * probe of search_dirty's key.
 */
export async function catchUp(db: Db, embedder: Embedder | null): Promise<void> {
  const waiting = await db.get<{ x: number }>(sql`SELECT 1 AS x FROM search_dirty LIMIT 1`);
  if (waiting) await flushSearchIndex(db, 500, embedder);
}
