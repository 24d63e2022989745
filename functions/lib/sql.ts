import { getTableColumns, getTableName, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * SQL fragments with values inlined as quoted literals. D1 binds at most 100 parameters per
 * statement, and a caller's rule paths or a page of ids can exceed that; every value goes through
 * `literal`, which doubles quotes, so nothing user-supplied can break out of the string.
 */
export const literal = (value: string) => sql.raw(`'${value.replace(/'/g, "''")}'`);

/** `(id1, id2, …)` for `inArray(column, idList(ids))`; an empty list is valid SQLite and matches nothing. */
export const idList = (ids: readonly string[]): SQL => sql.raw(`(${ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(", ")})`);

/** The exclusive end of a materialized-path subtree: "/a/b/" covers ["/a/b/", "/a/b0"), as '0' follows '/'. */
export const subtreeEnd = (path: string) => `${path.slice(0, -1)}0`;

/** The path column lies in the subtree at `path` (itself included): an index range, not a LIKE. */
export const inSubtree = (column: SQLWrapper, path: string) =>
  sql`(${column} >= ${literal(path)} AND ${column} < ${literal(subtreeEnd(path))})`;

/** In any of the subtrees; `0` (false) for none. Nested paths are dropped, they add nothing. */
export function inAnySubtree(column: SQLWrapper, paths: readonly string[]): SQL {
  const sorted = [...new Set(paths)].sort();
  const outer = sorted.filter((p, i) => !sorted.slice(0, i).some((q) => p.startsWith(q)));
  if (outer.length === 0) return sql`0`;
  return sql`(${sql.join(
    outer.map((p) => inSubtree(column, p)),
    sql` OR `,
  )})`;
}

/**
 * INSERT … SELECT of one row (drizzle field names, as for .values()), only when `when` holds: a check
 * and the write it allows in one statement, so no parallel request slips between them. Values are
 * inlined (numbers, NULL, quoted strings) since raw statements in a D1 batch bind nothing; `when` must
 * be built from literals too.
 */
export function insertRowWhen(table: SQLiteTable, row: Record<string, unknown>, when: SQL): SQL {
  const cols = columnsOf(table, row);
  return sql`INSERT INTO ${sql.identifier(getTableName(table))} (${sql.join(
    cols.map(([, c]) => sql.identifier(c.name)),
    sql`, `,
  )})
    SELECT ${sql.join(
      cols.map((col) => literalValue(col, row)),
      sql`, `,
    )} WHERE ${when}`;
}

/**
 * One INSERT of many rows (all with the keys of the first), values inlined as in insertRowWhen: a bulk
 * write of hundreds of rows is then a few statements of one batch instead of one per 100 bound parameters.
 */
export function insertRows(table: SQLiteTable, rows: Record<string, unknown>[]): SQL {
  const cols = columnsOf(table, rows[0]);
  const tuple = (row: Record<string, unknown>) =>
    sql`(${sql.join(
      cols.map((col) => literalValue(col, row)),
      sql`, `,
    )})`;
  return sql`INSERT INTO ${sql.identifier(getTableName(table))} (${sql.join(
    cols.map(([, c]) => sql.identifier(c.name)),
    sql`, `,
  )}) VALUES ${sql.join(rows.map(tuple), sql`, `)}`;
}

type Column = ReturnType<typeof getTableColumns>[string];
const columnsOf = (table: SQLiteTable, row: Record<string, unknown>) =>
  Object.entries(getTableColumns(table)).filter(([key]) => row[key] !== undefined);

function literalValue([key, col]: [string, Column], row: Record<string, unknown>): SQL {
  const v: unknown = col.mapToDriverValue(row[key]);
  if (v === null) return sql.raw("NULL");
  if (typeof v === "number" && Number.isFinite(v)) return sql.raw(String(v));
  return literal(String(v));
}

/** A write refused by a unique index (of `table`, when given). D1 puts SQLite's text in the error or its cause. */
export function isUniqueViolation(err: unknown, table?: string): boolean {
  const text = `${(err as Error)?.message} ${(err as { cause?: Error })?.cause?.message}`;
  return text.includes(table ? `UNIQUE constraint failed: ${table}` : "UNIQUE constraint failed");
}

/**
 * Runs a write and turns a unique-index refusal into `clash()` (a 409 naming the field): a racing writer can
 * pass the caller's own check and still meet the index.
 */
export async function clashOnUnique<T>(run: () => Promise<T>, clash: () => Error, table?: string): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err, table)) throw clash();
    throw err;
  }
}
