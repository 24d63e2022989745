/**
 * How tag and taxon names compare: NFC, lower case by Russian rules, ё as е, runs of white space as one
 * space. Stored beside the name (tags.name_key, taxa.name_key) because SQLite's lower() folds ASCII only.
 */
export const tidyName = (name: string) => name.normalize("NFC").trim().replace(/\s+/g, " ");

export const nameKey = (name: string) => tidyName(name).toLocaleLowerCase("ru").replace(/ё/g, "е");

/**
 * The exclusive upper end of the keys that start with `prefix`: its last code point plus one. SQLite
 * compares text by its UTF-8 bytes, which order as code points do, so [prefix, end) is every such key.
 */
export function prefixEnd(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  return last >= 0x10ffff ? `${prefix}\u{10ffff}` : points.join("") + String.fromCodePoint(last + 1);
}
