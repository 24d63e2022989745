import Papa from "papaparse";

/**
 * The one CSV writer and its reader (docs/decisions/039-bulk-metadata-and-csv.md, 025 threat model). A cell a
 * spreadsheet would run as a formula, one starting with = + - @, a tab or a carriage return, is written with a
 * leading apostrophe (OWASP "CSV injection"): spreadsheets show the text, and the apostrophe, not a formula.
 * So that the reader can take the mark off again and every value comes back exactly, a value that already starts
 * with apostrophes followed by such a character gets one more; the reader removes exactly one from any cell of
 * that shape. Every value maps to one cell and back: a round trip is exact.
 */

const risky = /^'*[=+\-@\t\r]/;

/** A value as a cell: text neutralised, numbers as they are, null and undefined empty. */
export function csvCell(v: string | number | null | undefined): string | number {
  if (v === null || v === undefined) return "";
  return typeof v === "string" && risky.test(v) ? `'${v}` : v;
}

/** Rows as CSV text (CRLF between rows, none after the last), every cell through csvCell. */
export const csvText = (rows: (string | number | null | undefined)[][]) => Papa.unparse(rows.map((r) => r.map(csvCell)));

/** A cell read back: the apostrophe csvCell added comes off; any other text stays as it is. */
export const csvValue = (cell: string) => (cell.startsWith("'") && risky.test(cell) ? cell.slice(1) : cell);

/** CSV text as rows of values (a byte order mark skipped, empty lines too), each cell through csvValue. */
export function parseCsv(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  return parsed.data.map((row) => row.map(csvValue));
}
