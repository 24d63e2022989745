import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { getDb } from "../../functions/lib/db";

/** The run is on libSQL: the Worker's database is the embedded file, and the D1 binding was never written. */
it("the metadata store of this run is the libSQL file", async () => {
  const db = getDb(env);
  expect("execute" in (db.$client as object)).toBe(true);
  expect(env.LIBSQL_URL).toMatch(/^file:/);
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM users`);
  expect(row?.n).toBeGreaterThan(0);
  const d1Tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'users'").all();
  expect(d1Tables.results).toEqual([]);
});
