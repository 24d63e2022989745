import { sql } from "drizzle-orm";
import { accessContext } from "../lib/access";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { prefixEnd } from "../tags/name-key";
import { readableDocs } from "./readable";
import type { Suggestion } from "./schemas";
import { fold, stem, words } from "./text";

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

async function byPrefix(db: Db, auth: AuthUser, head: string[], last: string, take: number): Promise<Suggestion[]> {
  const key = [...head, last].join(" ");
  const end = prefixEnd(key);
  const fts = [...head.map((w) => `"${stem(w)}"`), `("${last}"* OR "${stem(last)}"*)`].map((t) => `name : ${t}`).join(" AND ");
  const ctx = await accessContext(db, auth);
  const [tags, taxa, fields, docs] = await Promise.all([
    db.all<{ id: string; text: string }>(
      sql`SELECT tag_id AS id, tag_name AS text FROM tags WHERE name_key >= ${key} AND name_key < ${end} ORDER BY name_key LIMIT ${take}`,
    ),
    db.all<{ id: string; text: string }>(
      sql`SELECT taxon_id AS id, name AS text FROM taxa WHERE name_key >= ${key} AND name_key < ${end} ORDER BY name_key LIMIT ${take}`,
    ),
    db.all<{ id: string; text: string }>(
      sql`SELECT field_def_id AS id, field_def_name AS text FROM field_templates WHERE lower(field_def_name) LIKE ${`${key.replace(/[%_\\]/g, "\\$&")}%`} ESCAPE '\\' LIMIT ${take}`,
    ),
    // Matches in rowid order, not ranked: ranking every hit of a two-letter prefix would read them all.
    db.all<{ id: string; text: string; kind: "asset" | "group" }>(
      sql`SELECT d.el_id AS id, d.name AS text, d.el_type AS kind FROM search_fts f JOIN search_docs d ON d.doc_id = f.rowid
        WHERE search_fts MATCH ${fts} AND ${readableDocs(ctx)} LIMIT ${take * 3}`,
    ),
  ]);
  // Names that start with the text first, then tags, taxa and fields, then names with it in a later word.
  const starts = (t: string) => fold(t).startsWith(key);
  const byLength = (a: { text: string }, b: { text: string }) => a.text.length - b.text.length;
  return [
    ...docs.filter((r) => starts(r.text)).sort(byLength),
    ...tags.map((r) => ({ ...r, kind: "tag" as const })),
    ...taxa.map((r) => ({ ...r, kind: "taxon" as const })),
    ...fields.map((r) => ({ ...r, kind: "field" as const })),
    ...docs.filter((r) => !starts(r.text)).sort(byLength),
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
  // The corrections are looked up alongside the exact prefix, and their prefixes all at once: two round trips to
  // the database where one after the other made five (the corrections go unused when the prefix fills the list).
  const [exact, fixes] = await Promise.all([byPrefix(db, auth, typed, last, take), corrections(db, last)]);
  add(exact, false);
  if (out.length < take && fixes.length) {
    for (const list of await Promise.all(fixes.map((word) => byPrefix(db, auth, typed, word, take)))) add(list, true);
  }
  return out;
}
