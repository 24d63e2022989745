import { newStemmer } from "snowball-stemmers";

/**
 * How search sees text (docs/decisions/045-search.md): folded (NFC, lower case by Russian rules, ё as е),
 * cut into words of letters and digits, and each word stemmed by Snowball — Russian for Cyrillic words,
 * English for Latin ones. The same function stems documents and queries, so whatever it conflates, it
 * conflates on both sides.
 */

const russian = newStemmer("russian");
const english = newStemmer("english");

export const fold = (text: string) => text.normalize("NFC").toLocaleLowerCase("ru").replace(/ё/g, "е");

/** The words of a text, folded, in order. */
export const words = (text: string): string[] => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];

const cyrillic = /[а-я]/;
const latin = /^[a-z]+$/;
/**
 * Snowball keeps the fleeting vowel of a genitive plural ("кошек" stays "кошек" while "кошка", "кошки" and
 * "кошкой" become "кошк"; "отец" / "отца"): a consonant, е or о, then к or ц at the end of a stem drops
 * the vowel, so every form meets at one stem.
 */
const fleeting = /([бвгджзйклмнпрстфхцчшщ])[ео]([кц])$/;

/**
 * The stems of words seen, a bounded memo per isolate: snippets stem a long document's words line by line until a
 * hit (a transcript's speech repeats a few thousand words), and Snowball costs microseconds a word.
 */
const memo = new Map<string, string>();
const MEMO_SIZE = 50_000;

export function stem(word: string): string {
  let s = memo.get(word);
  if (s === undefined) {
    s = stemOnce(word);
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(word, s);
  }
  return s;
}

function stemOnce(word: string): string {
  if (cyrillic.test(word)) {
    const s = russian.stem(word);
    return s.length >= 4 ? s.replace(fleeting, "$1$2") : s;
  }
  if (latin.test(word)) return english.stem(word);
  return word;
}

/** The stems of a text joined by spaces: what search_fts indexes. */
export const stemText = (text: string) => words(text).map(stem).join(" ");
