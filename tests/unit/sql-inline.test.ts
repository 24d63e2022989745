import { sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { idList, inlined, literal, statementOf } from "../../functions/lib/sql";

/** functions/lib/sql.ts: the one inliner gives the text the tasks' `q` and lib/sql.ts's `literal` gave before. */
const text = (query: ReturnType<typeof sql>) => new SQLiteAsyncDialect().sqlToQuery(query);

describe("the one literal inliner", () => {
  it("inlines every kind of value, quotes doubled", () => {
    const guard = inlined`EXISTS (SELECT 1 FROM tasks WHERE job_id = ${"j'1"})`;
    expect(text(inlined`INSERT INTO t SELECT ${"a'b"}, ${5}, ${null}, ${undefined}, ${true}, ${false} WHERE ${guard}`)).toEqual({
      sql: "INSERT INTO t SELECT 'a''b', 5, NULL, NULL, 1, 0 WHERE EXISTS (SELECT 1 FROM tasks WHERE job_id = 'j''1')",
      params: [],
    });
  });

  it("refuses a number SQL cannot hold", () => {
    expect(() => inlined`SELECT ${Number.NaN}`).toThrow(/non-finite/);
  });

  it("literal and idList inline strings as before", () => {
    expect(text(sql`x = ${literal("it's")} AND y IN ${idList(["a", "b'c"])} AND z IN ${idList([])}`)).toEqual({
      sql: "x = 'it''s' AND y IN ('a', 'b''c') AND z IN ()",
      params: [],
    });
  });

  it("statementOf keeps drizzle's bound values", () => {
    expect(statementOf(sql`SELECT ${1}, ${"a"}`)).toEqual({ sql: "SELECT ?, ?", args: [1, "a"] });
  });
});
