import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { idList } from "../lib/sql";
import { type Hits, isHit, isHitStem, parseQuery, snippet } from "./match";
import type { SearchAnswer } from "./schemas";
import { stem, words } from "./text";

/**
 * Where in a transcript a search hit is (docs/decisions/059-transcripts.md, "Search"). The asset is found by its
 * search document, which holds its latest version's transcript text; then its segments are read with the same
 * folding and stemmer as the index, and the segment holding the most of the query's words (the earliest among
 * equals) gives the hit its time `at` (the segment's start, seconds) and its snippet. Only the page's assets are
 * read, so the cost follows the page, not the archive.
 *
 * Stemming every segment of fifty long transcripts costs more than the search itself, so SQLite narrows first:
 * only segments whose text holds the start of a query stem (any case, е for ё) are candidates, those that may
 * hold more of the query's words first, and at most CANDIDATES of them per asset come back (a start is rarely
 * anything but the word); a transcript stops being read at its first segment holding every word. A Snowball stem differs from its word only at the end (a
 * suffix cut, a fleeting vowel dropped before к/ц, нн made н), so its first letters but the last are the word's.
 */

export interface TranscriptHit {
  at: number;
  snippet: string;
}

/** Segments per asset stemmed at most: the first candidates by how many of the query's words they may hold. */
const CANDIDATES = 12;

/** GLOB for text holding `start` in any case, е matching ё: `*[кК][оО][шШ]*`. */
const globOf = (start: string) =>
  `*${[...start].map((ch) => (ch === "е" ? "[еЕёЁ]" : /\p{L}/u.test(ch) ? `[${ch}${ch.toLocaleUpperCase("ru")}]` : ch)).join("")}*`;

/** The start of a stem every form of its word begins with (folded): all but its last letter, at most three. */
const startOf = (s: string) => s.slice(0, Math.max(1, Math.min(3, s.length - 1)));

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
  // Per term, whether a segment's text may hold it; the candidates holding more terms come first, then earlier ones.
  const text = sql.raw("c.text");
  const mayHold = terms.map(
    (t) =>
      sql`(${sql.join(
        [...new Set([...t.stems, ...t.prefixes].map(startOf))].map((s) => sql`${text} GLOB ${globOf(s)}`),
        sql` OR `,
      )})`,
  );
  const rows = await db.all<{ id: string; start: number; text: string }>(sql`
    WITH c AS (SELECT t.asset_id AS id, s.key AS k, json_extract(s.value, '$.start') AS start, json_extract(s.value, '$.text') AS text
      FROM transcripts t, json_each(t.segments) s
      WHERE t.asset_id IN ${idList(assetIds)} AND t.version = (SELECT max(v.version) FROM versions v WHERE v.asset_id = t.asset_id))
    SELECT id, start, text FROM (
      SELECT c.id, c.start, c.text, row_number() OVER (PARTITION BY c.id ORDER BY ${sql.join(mayHold, sql` + `)} DESC, c.k) AS n
      FROM c WHERE ${sql.join(mayHold, sql` OR `)})
    WHERE n <= ${sql.raw(String(CANDIDATES))} ORDER BY id, n`);
  // Speech repeats its words: each is stemmed once per search, to the set of terms it is a hit for (a bit each).
  const known = new Map<string, number>();
  const termsOf = (w: string) => {
    let bits = known.get(w);
    if (bits === undefined) {
      const s = stem(w);
      bits = 0;
      terms.forEach((t: Hits, i) => {
        if (isHitStem(s, t)) bits! |= 1 << i;
      });
      known.set(w, bits);
    }
    return bits;
  };
  const full = terms.length;
  const best = new Map<string, { row: (typeof rows)[number]; score: number }>();
  for (const row of rows) {
    const had = best.get(row.id);
    if (had && had.score === full) continue;
    let bits = 0;
    for (const w of words(row.text)) bits |= termsOf(w);
    let score = 0;
    for (let b = bits; b; b &= b - 1) score++;
    if (score > (had?.score ?? 0) || (score && score === had?.score && row.start < had.row.start)) best.set(row.id, { row, score });
  }
  // The cue's line breaks are spaces here: the snippet is one line around the first hit.
  for (const [id, { row }] of best) out.set(id, { at: row.start, snippet: snippet("", row.text.replace(/\n/g, " "), all) });
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
