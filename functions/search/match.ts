import { stem, words } from "./text";

/**
 * A query's words as an FTS5 expression over the stemmed columns, and the stems a snippet marks. Every word
 * must match (AND); text in double quotes must match as a phrase. A word matches its stem; a longer Cyrillic
 * stem also matches as a prefix and one letter shorter, since Snowball cuts some forms deeper than others
 * ("диван" → "дива" but "диване" → "диван"; "вулкан" → "вулка" but "вулканам" → "вулкан").
 */

/** What a word of a text must stem to, to be a hit: one of `stems`, or a stem starting with one of `prefixes`. */
export interface Hits {
  stems: Set<string>;
  prefixes: string[];
}

export interface Match extends Hits {
  /** The FTS5 MATCH expression; null for a query without words. */
  fts: string | null;
}

/** The rank of an FTS hit: bm25 over search_fts's columns name, tags (and taxa), body, weighed 10, 5 and 1. */
export const BM25 = "bm25(search_fts, 10.0, 5.0, 1.0)";

const LONG_STEM = 5;
const isLong = (s: string) => /[а-я]/.test(s) && s.length >= LONG_STEM;

const quote = (s: string) => `"${s}"`;

/** Words too common to narrow a search: left out of the query unless it has nothing else. */
const STOP = new Set(
  (
    "и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по ее мне было вот от меня еще нет о об из ему для при до " +
    "a an the of in on at to for and or by with is are was be it this that from as"
  ).split(" "),
);

/** `any`: a document needs only one of the words (the answers' retrieval), not all of them. */
export function parseQuery(q: string, any = false): Match {
  const stems = new Set<string>();
  const prefixes: string[] = [];
  const terms: string[] = [];
  const phraseRe = /"([^"]*)"/g;
  for (const [, phrase] of q.matchAll(phraseRe)) {
    const ws = words(phrase).map(stem);
    if (!ws.length) continue;
    for (const s of ws) stems.add(s);
    terms.push(quote(ws.join(" ")));
  }
  const loose = words(q.replace(phraseRe, " "));
  const meaningful = loose.filter((w) => !STOP.has(w));
  for (const w of meaningful.length || terms.length ? meaningful : loose) {
    const s = stem(w);
    if (isLong(s)) {
      const shorter = s.slice(0, -1);
      stems.add(shorter);
      prefixes.push(s);
      terms.push(`(${quote(s)}* OR ${quote(shorter)})`);
    } else {
      stems.add(s);
      terms.push(quote(s));
    }
  }
  return { fts: terms.length ? terms.join(any ? " OR " : " AND ") : null, stems, prefixes };
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Whether a word of the text is a hit: its stem is one the query asked for. */
export const isHit = (word: string, hits: Hits) => {
  const [w] = words(word);
  return w !== undefined && isHitStem(stem(w), hits);
};

/** Whether a stem (a word of search_fts) is a hit. */
export const isHitStem = (s: string, hits: Hits) => hits.stems.has(s) || hits.prefixes.some((p) => s.startsWith(p));

/** `text` HTML-escaped with its hits in <mark>; true when it held one. */
function mark(text: string, hits: Hits): [string, boolean] {
  let out = "";
  let last = 0;
  let hit = false;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const at = m.index ?? 0;
    if (!isHit(m[0], hits)) continue;
    out += `${escapeHtml(text.slice(last, at))}<mark>${escapeHtml(m[0])}</mark>`;
    last = at + m[0].length;
    hit = true;
  }
  return [out + escapeHtml(text.slice(last)), hit];
}

const WINDOW = 160;

/**
 * The snippet of a result: the first line of its text (tags, taxa, field values, document) holding a hit, cut
 * to a window around the first hit, with every hit marked; the name when only the name matched.
 */
export function snippet(name: string, body: string, hits: Hits): string {
  if (hits.stems.size || hits.prefixes.length) {
    for (const line of body.split("\n")) {
      const first = [...line.matchAll(/[\p{L}\p{N}]+/gu)].find((m) => isHit(m[0], hits));
      if (!first) continue;
      const at = first.index ?? 0;
      const from = Math.max(0, at - WINDOW / 2);
      const piece = line.slice(from, from + WINDOW);
      const [marked] = mark(piece, hits);
      return `${from > 0 ? "…" : ""}${marked}${from + WINDOW < line.length ? "…" : ""}`;
    }
  }
  const [marked] = mark(name, hits);
  return marked;
}
