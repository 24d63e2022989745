import { and, sql } from "drizzle-orm";
import { accessContext } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { isHit, parseQuery, snippet } from "./match";
import { filterSql } from "./query";
import { readableDocs } from "./readable";
import type { RagAnswer, RagBody } from "./schemas";

/**
 * POST /api/search/rag (docs/decisions/045-search.md). No text model runs here, so the answer is extractive:
 * the sentences of the best keyword hits (any of the question's words, among what the caller can read) that
 * hold most of its words, each followed by the number of the asset it came from. Nothing is said that no
 * readable asset says.
 */

const SOURCES = 8;
const SENTENCES = 3;

const sentencesOf = (text: string) =>
  text
    .split(/\n+|(?<=[.!?…])\s+/u)
    .map((s) => s.trim())
    .filter((s) => s.length >= 3);

export async function answer(db: Db, auth: AuthUser, body: RagBody): Promise<RagAnswer> {
  const match = parseQuery(body.question, true);
  if (!match.fts) return { answer: "", citations: [], mode: "extractive" };
  const [ctx, filters] = await Promise.all([accessContext(db, auth), filterSql(db, auth, body.filters)]);
  const docs = await db.all<{ el_id: string; name: string; body: string }>(
    sql`SELECT d.el_id, d.name, d.body FROM (SELECT rowid AS doc_id, bm25(search_fts, 10.0, 5.0, 1.0) AS rank FROM search_fts WHERE search_fts MATCH ${match.fts}) m
      CROSS JOIN search_docs d ON d.doc_id = m.doc_id WHERE d.el_type = 'asset' AND ${and(...filters, readableDocs(ctx))} ORDER BY m.rank LIMIT ${SOURCES}`,
  );
  // Each sentence scores the distinct question stems it holds; ties go to the better-ranked asset.
  const candidates = docs.flatMap((doc, rank) =>
    sentencesOf(`${doc.name}\n${doc.body}`).map((text) => {
      const hits = new Set((text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => isHit(w, match)).map((w) => w.toLowerCase()));
      return { doc, rank, text, score: hits.size };
    }),
  );
  const best = candidates
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.rank - b.rank)
    .slice(0, SENTENCES);
  const cited: typeof docs = [];
  const parts = best.map((c) => {
    let n = cited.indexOf(c.doc) + 1;
    if (!n) n = cited.push(c.doc);
    return `${c.text} [${n}]`;
  });
  return {
    answer: parts.join(" "),
    citations: cited.map((d) => ({ el_id: d.el_id, name: d.name, snippet: snippet(d.name, d.body, match) })),
    mode: "extractive",
  };
}
