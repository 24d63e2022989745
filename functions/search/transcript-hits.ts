import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { idList } from "../lib/sql";
import { prefixEnd } from "../tags/name-key";
import { type Hits, isHit, isHitStem, parseQuery, snippet } from "./match";
import type { SearchAnswer } from "../../shared/search/schemas";
import { words } from "./text";

/**
 * Where in a transcript a search hit is (docs/decisions/059-transcripts.md, "Search"). The asset is found by its
 * search document, whose FTS row holds its latest version's transcript; then the segment holding the most of the
 * query's words (the earliest among equals) gives the hit its time `at` (the segment's start, seconds) and its
 * snippet. Only the page's assets are read, so the cost follows the page, not the archive.
 *
 * The indexer keeps each document's segments, stemmed as the index stems, in `search_segments` (FTS5), their rowids
 * the range SEGMENT_SPAN × doc_id onwards: for each asset FTS5 seeks to its range and stops at the first segment
 * matching, so a search reads a few segments an asset instead of its whole transcript.
 */

export interface TranscriptHit {
  at: number;
  snippet: string;
}

/** A document's segments are rowids doc_id × SEGMENT_SPAN + their index in search_segments (migration 0031). */
export const SEGMENT_SPAN = 1_048_576;

/** The rowid range of `d`'s segments, for SQL over search_docs `d`. */
const inDoc = (rowid: string) => sql.raw(`${rowid} >= d.doc_id * ${SEGMENT_SPAN} AND ${rowid} < (d.doc_id + 1) * ${SEGMENT_SPAN}`);

interface Row {
  id: string;
  start: number;
  text: string;
}

/** Terms a prefix expands to at most; past that it stays a prefix query (FTS5 merges its postings each time). */
const MAX_EXPANSION = 64;

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * A query word as an FTS5 expression over search_segments with exact terms only, those the segments hold
 * (search_segments_vocab), looked up once per search; null when they hold none. A prefix (`"собак"*`) becomes the
 * stems starting with it: FTS5 answers a prefix by merging its postings over the whole index, which on every asset's
 * lookup cost more than the search. A term no segment holds would still be sought in every b-tree of the index.
 */
async function termExpr(db: Db, t: Hits): Promise<string | null> {
  const vocab = (where: SQL) =>
    db.all<{ term: string }>(sql`SELECT term FROM search_segments_vocab WHERE ${where} LIMIT ${MAX_EXPANSION + 1}`);
  const [exact, prefixed] = await Promise.all([
    Promise.all([...t.stems].map((s) => vocab(sql`term = ${s}`))),
    Promise.all(t.prefixes.map((p) => vocab(sql`term >= ${p} AND term < ${prefixEnd(p)}`))),
  ]);
  const parts = exact.flat().map((r) => quote(r.term));
  t.prefixes.forEach((p, i) => {
    const found = prefixed[i] ?? [];
    if (found.length > MAX_EXPANSION) parts.push(`${quote(p)}*`);
    else for (const { term } of found) parts.push(quote(term));
  });
  return parts.length ? `(${[...new Set(parts)].join(" OR ")})` : null;
}

/**
 * The best segment of each asset's latest-version transcript for the query `q` (`any`: as answers read it, any of
 * its words); assets without a segment holding one of its words are absent.
 */
export async function transcriptHits(db: Db, assetIds: string[], q: string, any = false): Promise<Map<string, TranscriptHit>> {
  const out = new Map<string, TranscriptHit>();
  const all = parseQuery(q, any);
  // The query's words as the search kept them (stop words only when there is nothing else), each a term a segment may hold.
  const terms = [...new Set(words(q.replace(/"/g, " ")))]
    .filter((w) => isHit(w, all))
    // A bit each in a 32-bit mask.
    .slice(0, 30)
    .map((w) => parseQuery(w));
  if (!assetIds.length || !terms.length) return out;
  const exprs = await Promise.all(terms.map((t) => termExpr(db, t)));
  const held = exprs.filter((e): e is string => e !== null);
  if (!held.length) return out;
  const every = held.length === exprs.length ? held.join(" AND ") : null;
  const some = held.join(" OR ");
  // The first segment holding every word, else (for one or two words, where that is the best) the first holding one.
  const first = (expr: string) =>
    sql`(SELECT rowid FROM search_segments WHERE search_segments MATCH ${expr} AND ${inDoc("rowid")} ORDER BY rowid LIMIT 1)`;
  const lookup =
    terms.length > 2 ? every && first(every) : every && terms.length === 2 ? sql`coalesce(${first(every)}, ${first(some)})` : first(some);
  const rows = lookup
    ? await db.all<Row>(sql`
    SELECT d.el_id AS id, s.start, s.text FROM search_docs d JOIN search_segments s ON s.rowid = ${lookup}
    WHERE d.el_id IN ${idList(assetIds)}`)
    : [];
  // Which terms a segment holds, read from its stems (a bit each): the same test as the index's.
  const known = new Map<string, number>();
  const termsOf = (s: string) => {
    let bits = known.get(s);
    if (bits === undefined) {
      bits = 0;
      terms.forEach((t: Hits, i) => {
        if (isHitStem(s, t)) bits! |= 1 << i;
      });
      known.set(s, bits);
    }
    return bits;
  };
  const scoreOf = (row: Row & { stems: string }) => {
    let bits = 0;
    for (const s of row.stems.split(" ")) bits |= termsOf(s);
    let score = 0;
    for (let b = bits; b; b &= b - 1) score++;
    return score;
  };
  const best = new Map<string, Row>(rows.map((r) => [r.id, r]));
  // Three words or more without a segment holding them all: the segment holding the most of them is looked for among all.
  const rest = terms.length > 2 ? assetIds.filter((id) => !best.has(id)) : [];
  if (rest.length) {
    const candidates = await db.all<Row & { stems: string }>(sql`
      SELECT d.el_id AS id, search_segments.start, search_segments.text, search_segments.stems FROM search_docs d, search_segments
      WHERE d.el_id IN ${idList(rest)} AND search_segments MATCH ${some} AND ${inDoc("search_segments.rowid")}
      ORDER BY d.el_id, search_segments.rowid`);
    const scores = new Map<string, number>();
    for (const row of candidates) {
      const score = scoreOf(row);
      if (score > (scores.get(row.id) ?? 0)) {
        scores.set(row.id, score);
        best.set(row.id, row);
      }
    }
  }
  // The cue's line breaks are spaces here: the snippet is one line around the first hit.
  for (const [id, row] of best) out.set(id, { at: row.start, snippet: snippet("", row.text.replace(/\n/g, " "), all) });
  return out;
}

/** A search answer whose items found in a transcript carry the segment's `at` and snippet. */
export async function withTranscriptTimes(db: Db, answer: SearchAnswer, q: string): Promise<SearchAnswer> {
  const assets = answer.items.filter((i) => i.el_type === "asset").map((i) => i.el_id);
  const found = await transcriptHits(db, assets, q);
  if (!found.size) return answer;
  return {
    ...answer,
    items: answer.items.map((i) => {
      const t = found.get(i.el_id);
      return t ? { ...i, at: t.at, snippet: t.snippet } : i;
    }),
  };
}
