import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { idList } from "../lib/sql";
import { type Hits, isHitStem, snippet } from "./match";
import type { SearchAnswer } from "./schemas";
import { stem, words } from "./text";

/**
 * Where in a transcript a search hit is (docs/decisions/059-transcripts.md, "Search"). The asset is found by its
 * search document, which holds its latest version's transcript text; then its segments are read with the same
 * folding and stemmer as the index, and the segment holding the most distinct query stems (the earliest among
 * equals) gives the hit its time `at` (the segment's start, seconds) and its snippet. Only the page's assets are
 * read, so the cost follows the page, not the archive.
 */

export interface TranscriptHit {
  at: number;
  snippet: string;
}

interface Segment {
  start: number;
  text: string;
}

/** The best segment of each asset's latest-version transcript for `hits`; assets without a hit are absent. */
export async function transcriptHits(db: Db, assetIds: string[], hits: Hits): Promise<Map<string, TranscriptHit>> {
  const out = new Map<string, TranscriptHit>();
  if (!assetIds.length || !(hits.stems.size || hits.prefixes.length)) return out;
  const rows = await db.all<{ id: string; segments: string }>(sql`SELECT t.asset_id AS id, t.segments FROM transcripts t
    WHERE t.asset_id IN ${idList(assetIds)} AND t.version = (SELECT max(v.version) FROM versions v WHERE v.asset_id = t.asset_id)`);
  // Speech repeats its words: each is stemmed once per search.
  const stems = new Map<string, boolean>();
  const isHit = (w: string) => {
    let hit = stems.get(w);
    if (hit === undefined) {
      hit = isHitStem(stem(w), hits);
      stems.set(w, hit);
    }
    return hit;
  };
  for (const row of rows) {
    let best: Segment | null = null;
    let bestScore = 0;
    for (const s of JSON.parse(row.segments) as Segment[]) {
      const found = new Set(words(s.text).filter(isHit));
      if (found.size > bestScore) {
        best = s;
        bestScore = found.size;
      }
    }
    // The cue's line breaks are spaces here: the snippet is one line around the first hit.
    if (best) out.set(row.id, { at: best.start, snippet: snippet("", best.text.replace(/\n/g, " "), hits) });
  }
  return out;
}

/** A search answer whose items found in a transcript carry the segment's `at` and snippet. */
export async function withTranscriptTimes(db: Db, answer: SearchAnswer, hits: Hits): Promise<SearchAnswer> {
  const assets = answer.items.filter((i) => i.el_type === "asset").map((i) => i.el_id);
  const found = await transcriptHits(db, assets, hits);
  if (!found.size) return answer;
  return {
    ...answer,
    items: answer.items.map((i) => {
      const t = found.get(i.el_id);
      return t ? { ...i, at: t.at, snippet: t.snippet } : i;
    }),
  };
}
