import type { Client } from "@libsql/client/web";
import { getTableColumns, getTableName, is, SQL, sql, type SQLWrapper } from "drizzle-orm";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./db";

/**
 * The one raw-SQL toolkit (docs/decisions/065-one-sql-toolkit.md). Two ways to carry a value into raw SQL:
 * - inlined as a literal (`literal`, `inlined`, `idList`): for raw SQL inside a drizzle db.batch, which cannot
 *   bind values of raw SQL on D1 (lib/db.ts guardBatch), and for lists longer than D1's 100 bound parameters;
 * - bound (`RawStatement`, run by `rawBatch`): for values too long to inline (documents' text) or blobs (vectors).
 */

/**
 * A value as SQL text, the one inliner: NULL, 1/0 for booleans, finite numbers as they are, anything else a
 * string in quotes with its quotes doubled, so nothing user-supplied can break out of it.
 */
function literalText(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("non-finite number in SQL");
    return String(value);
  }
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** A value inlined as an SQL literal (see literalText). */
export const literal = (value: string | number | boolean | null): SQL => sql.raw(literalText(value));

/**
 * A raw statement with every value inlined (`literal`); an SQL fragment among the values (such as a guard built
 * with `inlined` too) goes in as it is. For raw SQL in a drizzle db.batch: `db.run(inlined\`…\`)`.
 */
export const inlined = (strings: TemplateStringsArray, ...values: unknown[]): SQL =>
  sql(strings, ...values.map((v) => (is(v, SQL) ? v : sql.raw(literalText(v)))));

/** `(id1, id2, …)` for `inArray(column, idList(ids))`; an empty list is valid SQLite and matches nothing. */
export const idList = (ids: readonly string[]): SQL => sql.raw(`(${ids.map(literalText).join(", ")})`);

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
  // NULL and finite numbers as they are; anything else (a boolean too) as the text drizzle would have bound.
  return literal(v === null || (typeof v === "number" && Number.isFinite(v)) ? v : String(v));
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

/** A raw statement with bound values: for values too long to inline (documents' text) or blobs (vectors). */
export interface RawStatement {
  sql: string;
  args: (string | number | null | ArrayBuffer | Uint8Array)[];
}

export const rawStatement = (sql: string, ...args: RawStatement["args"]): RawStatement => ({ sql, args });

const dialect = new SQLiteAsyncDialect();

/** A drizzle `sql` fragment as a raw statement with its values bound, for rawBatch. */
export function statementOf(query: SQL): RawStatement {
  const { sql, params } = dialect.sqlToQuery(query);
  return { sql, args: params as RawStatement["args"] };
}

const libsqlOf = (db: Db): Client | null => {
  const client = db.$client as unknown as Client | D1Database;
  return "execute" in client ? client : null;
};

/**
 * Runs the statements in one batch, all or nothing, binding their values on either store, and answers each
 * statement's rows (objects keyed by column, in the statements' order). The one path for raw SQL with bound
 * values in a batch: drizzle's D1 batch cannot bind raw statements (lib/db.ts guardBatch). `read`: a batch that
 * only reads, which libSQL can serve from a replica without taking the write lock (D1 needs no word).
 */
export async function rawBatch<T extends Record<string, unknown> = Record<string, unknown>>(
  db: Db,
  statements: RawStatement[],
  mode: "write" | "read" = "write",
): Promise<T[][]> {
  if (statements.length === 0) return [];
  const libsql = libsqlOf(db);
  if (libsql) {
    const results = await libsql.batch(
      statements.map((s) => ({ sql: s.sql, args: s.args as never })),
      mode,
    );
    return results.map((r) => r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, row[i]])) as T));
  }
  const d1 = db.$client as D1Database;
  const results = await d1.batch<T>(statements.map((s) => d1.prepare(s.sql).bind(...s.args)));
  return results.map((r) => r.results ?? []);
}
