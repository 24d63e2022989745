/**
 * The word forms of a count, in the order of the CLDR categories Intl.PluralRules("ru") answers:
 * one (1, 21, 101), few (2–4, 22–24), many (0, 5–20, 11–14, 25), other (fractions: "1,5 файла").
 * `other` is the genitive singular, which is the `few` form for the words of this dictionary; give it only where
 * the two differ.
 */
export type PluralForms = readonly [one: string, few: string, many: string, other?: string];

const pluralRules = new Intl.PluralRules("ru");

/** The form of `forms` that Russian uses with `count`. */
export function plural(count: number, forms: PluralForms): string {
  const [one, few, many, other = few] = forms;
  switch (pluralRules.select(count)) {
    case "one":
      return one;
    case "few":
      return few;
    case "many":
      return many;
    default:
      return other;
  }
}
