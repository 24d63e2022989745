import { and, sql } from "drizzle-orm";
import { accessContext } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { BM25, isHit, parseQuery, snippet } from "./match";
import { filterSql } from "./query";
import { readableDocs } from "./readable";
import { SEGMENT_SPAN, transcriptHits } from "./transcript-hits";
import { type Chat, citedSentences } from "./chat";
import type { RagAnswer, RagBody } from "../../shared/search/schemas";
import { literal } from "../lib/sql";

/**
 * POST /api/search/rag (docs/decisions/045-search.md). The best keyword hits for any of the question's words,
 * among the assets the caller can read, are the sources. With a chat endpoint (./chat.ts) the answer is written
 * from them, every sentence citing one; otherwise — or when the written answer does not cite as it must — it is
 * extractive: the sources' sentences that hold most of the question's words, each followed by its source's
 * number. Nothing is said that no readable asset says.
 */

const SOURCES = 8;
const SENTENCES = 3;

const sentencesOf = (text: string) =>
  text
    .split(/\n+|(?<=[.!?…])\s+/u)
    .map((s) => s.trim())
    .filter((s) => s.length >= 3);

export async function answer(db: Db, auth: AuthUser, body: RagBody, chat: Chat | null = null): Promise<RagAnswer> {
  const match = parseQuery(body.question, true);
  if (!match.fts) return { answer: "", citations: [], mode: "extractive" };
  const [ctx, filters] = await Promise.all([accessContext(db, auth), filterSql(db, auth, body.filters)]);
  // A source's text is its body and its transcript (kept apart in search_segments, ./transcript-hits.ts), read for the sources only.
  const span = literal(SEGMENT_SPAN);
  const docs = await db.all<{ el_id: string; name: string; body: string }>(
    sql`SELECT x.el_id, x.name, x.body || coalesce(char(10) || (SELECT group_concat(t.text, char(10)) FROM (SELECT text FROM search_segments
        WHERE rowid >= x.doc_id * ${span} AND rowid < (x.doc_id + 1) * ${span} ORDER BY rowid) t), '') AS body
      FROM (SELECT d.doc_id, d.el_id, d.name, d.body, m.rank FROM (SELECT rowid AS doc_id, ${sql.raw(BM25)} AS rank FROM search_fts WHERE search_fts MATCH ${match.fts}) m
        CROSS JOIN search_docs d ON d.doc_id = m.doc_id WHERE d.el_type = 'asset' AND ${and(...filters, readableDocs(ctx))} ORDER BY m.rank LIMIT ${SOURCES}) x
      ORDER BY x.rank`,
  );
  // A source found in its transcript is cited with the time it is said at, and that segment as its snippet.
  const times = await transcriptHits(
    db,
    docs.map((d) => d.el_id),
    body.question,
    true,
  );
  const citationOf = (d: (typeof docs)[number]) => {
    const t = times.get(d.el_id);
    return { el_id: d.el_id, name: d.name, snippet: t?.snippet ?? snippet(d.name, d.body, match), ...(t ? { at: t.at } : {}) };
  };
  if (chat && docs.length) {
    const generated = await generate(chat, body.question, docs).catch((error) => {
      console.error("search answer:", error);
      return null;
    });
    if (generated) return { answer: generated.answer, citations: generated.cited.map(citationOf), mode: "generated" };
  }
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
    citations: cited.map(citationOf),
    mode: "extractive",
  };
}

/** The chat's answer over the sources, renumbered by first citation; null when it is empty or cites badly. */
async function generate<D extends { name: string; body: string }>(chat: Chat, question: string, docs: D[]) {
  const text = await chat(
    question,
    docs.map((d) => ({ name: d.name, text: d.body })),
  );
  const sentences = text ? citedSentences(text, docs.length) : null;
  if (!sentences) return null;
  const cited: D[] = [];
  const number = (n: number) => {
    const doc = docs[n - 1];
    return cited.indexOf(doc) + 1 || cited.push(doc);
  };
  const answer = sentences.map((s) => `${s.text} ${[...new Set(s.cites.map(number))].map((n) => `[${n}]`).join("")}`).join(" ");
  return { answer, cited };
}
