import { type SQL, sql } from "drizzle-orm";
import { type AccessContext, accessContext } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { prefixEnd } from "../tags/name-key";
import { readableDocs } from "./readable";
import type { Suggestion } from "../../shared/search/schemas";
import { fold, stem, words } from "./text";
import { literal } from "../lib/sql";

/**
 * GET /api/search/autocomplete (docs/decisions/045-search.md): names that start with what was typed — tags,
 * taxa, field templates, and assets and groups (any word of their name, through the FTS5 prefix index) —
 * then, when those are few, the same for words one typo away, found by trigram in search_words and checked
 * by edit distance.
 */

/** Damerau–Levenshtein distance (adjacent swaps count one), for short words. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** How a typed word may differ from a prefix of a known word: one edit, none for very short words. */
const allowedTypos = (word: string) => (word.length >= 4 ? 1 : 0);

/** Vocabulary words that one typo turns the typed prefix into, closest first. */
async function corrections(db: Db, typed: string): Promise<string[]> {
  if (!allowedTypos(typed) || !/^\p{L}+$/u.test(typed)) return [];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= typed.length; i++) grams.add(typed.slice(i, i + 3));
  const rows = await db.all<{ word: string }>(
    sql`SELECT v.word FROM search_words w JOIN search_vocab v ON v.word_id = w.rowid
      WHERE search_words MATCH ${[...grams].map((g) => `"${g}"`).join(" OR ")} ORDER BY rank LIMIT 50`,
  );
  const scored = rows
    .map(({ word }) => {
      // The typed text is a prefix: compare it with the word's start of the same length, a letter more or less.
      const ds = [-1, 0, 1].map((k) => editDistance(typed, word.slice(0, typed.length + k)));
      return { word, dist: Math.min(...ds) };
    })
    .filter((s) => s.dist > 0 && s.dist <= allowedTypos(typed));
  return scored
    .sort((a, b) => a.dist - b.dist || a.word.length - b.word.length)
    .map((s) => s.word)
    .slice(0, 3);
}

/**
 * Suggestions for the text `head` + one of `lasts` (the typed last word, or its corrections, closest first): every
 * alternative in the same four statements, so the corrections cost one round trip, not one each.
 */
async function byPrefix(db: Db, ctx: AccessContext, head: string[], lasts: string[], take: number): Promise<Suggestion[]> {
  const keys = lasts.map((last) => [...head, last].join(" "));
  const ranges = keys.map((key) => sql`(name_key >= ${key} AND name_key < ${prefixEnd(key)})`);
  const likes = keys.map((key) => sql`lower(field_def_name) LIKE ${`${key.replace(/[%_\\]/g, "\\$&")}%`} ESCAPE '\\'`);
  /** Which alternative a row matched (the first, when several): its place in `keys`. */
  const which = (conds: SQL[]) =>
    sql`CASE ${sql.join(
      conds.map((c, i) => sql`WHEN ${c} THEN ${literal(i)}`),
      sql` `,
    )} END`;
  const any = (conds: SQL[]) => sql`(${sql.join(conds, sql` OR `)})`;
  const last = lasts.map((w) => `"${w}"* OR "${stem(w)}"*`).join(" OR ");
  const fts = [...head.map((w) => `"${stem(w)}"`), `(${last})`].map((t) => `name : ${t}`).join(" AND ");
  const limit = take * keys.length;
  type Named = { id: string; text: string; alt: number };
  const [tags, taxa, fields, docs] = await Promise.all([
    db.all<Named>(
      sql`SELECT tag_id AS id, tag_name AS text, ${which(ranges)} AS alt FROM tags WHERE ${any(ranges)} ORDER BY alt, name_key LIMIT ${limit}`,
    ),
    db.all<Named>(
      sql`SELECT taxon_id AS id, name AS text, ${which(ranges)} AS alt FROM taxa WHERE ${any(ranges)} ORDER BY alt, name_key LIMIT ${limit}`,
    ),
    db.all<Named>(
      sql`SELECT field_def_id AS id, field_def_name AS text, ${which(likes)} AS alt FROM field_templates WHERE ${any(likes)} ORDER BY alt LIMIT ${limit}`,
    ),
    // Matches in rowid order, not ranked: ranking every hit of a two-letter prefix would read them all.
    db.all<{ id: string; text: string; kind: "asset" | "group" }>(
      sql`SELECT d.el_id AS id, d.name AS text, d.el_type AS kind FROM search_fts f JOIN search_docs d ON d.doc_id = f.rowid
        WHERE search_fts MATCH ${fts} AND ${readableDocs(ctx)} LIMIT ${limit * 3}`,
    ),
  ]);
  // For each alternative in turn: names that start with its text first, then tags, taxa and fields; then names with
  // the text in a later word.
  const byLength = (a: { text: string }, b: { text: string }) => a.text.length - b.text.length;
  const startsWith = (key: string) => (r: { text: string }) => fold(r.text).startsWith(key);
  const anyStart = (r: { text: string }) => keys.some((key) => startsWith(key)(r));
  const of = (rows: Named[], i: number, kind: "tag" | "taxon" | "field") =>
    rows.filter((r) => r.alt === i).map((r) => ({ id: r.id, text: r.text, kind }));
  return [
    ...keys.flatMap((key, i) => [
      ...docs.filter(startsWith(key)).sort(byLength),
      ...of(tags, i, "tag"),
      ...of(taxa, i, "taxon"),
      ...of(fields, i, "field"),
    ]),
    ...docs.filter((r) => !anyStart(r)).sort(byLength),
  ];
}

export async function autocomplete(db: Db, auth: AuthUser, q: string, take: number): Promise<Suggestion[]> {
  const typed = words(q);
  const last = typed.pop();
  if (!last) return [];
  const seen = new Set<string>();
  const out: Suggestion[] = [];
  const add = (list: Suggestion[], typo: boolean) => {
    for (const s of list) {
      if (out.length >= take || seen.has(s.id)) continue;
      seen.add(s.id);
      out.push(typo ? { ...s, typo: true } : s);
    }
  };
  // The corrections are looked up alongside the exact prefix, and their prefixes all at once: two rounds of
  // statements where one after the other made five (the corrections go unused when the prefix fills the list).
  // The caller's access context is read once for both.
  const ctx = accessContext(db, auth);
  const [exact, fixes] = await Promise.all([ctx.then((c) => byPrefix(db, c, typed, [last], take)), corrections(db, last)]);
  add(exact, false);
  if (out.length < take && fixes.length) add(await byPrefix(db, await ctx, typed, fixes, take), true);
  return out;
}
