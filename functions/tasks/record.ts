import { sql } from "drizzle-orm";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { newId } from "../lib/ids";

/**
 * Raw statements for a db.batch. drizzle's D1 batch cannot bind parameters of raw SQL (it expects a
 * prepared statement there), so values are inlined as literals: strings quoted with doubled quotes,
 * as functions/lib/sql.ts does, numbers checked finite. Nothing user-supplied can break out.
 */
export class Raw {
  constructor(readonly text: string) {}
}

function literal(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error("non-finite number in SQL");
    return String(v);
  }
  return `'${String(v).replace(/'/g, "''")}'`;
}

export const q = (strings: TemplateStringsArray, ...values: unknown[]) =>
  new Raw(strings.reduce((acc, s, i) => acc + s + (i < values.length ? literal(values[i]) : ""), ""));

export const rawRun = (db: Db, r: Raw) => db.run(sql.raw(r.text));

/**
 * Event and log rows that belong to a conditional UPDATE: placed right after it in the same batch,
 * they insert only when it changed a row (SQLite's changes()), so a command that lost a race leaves
 * no event behind and the state change and its audit row are one transaction.
 */
export function followUps(
  db: Db,
  e: {
    kind: string;
    userId: string | null;
    jobId: string;
    run: number;
    data: Record<string, unknown>;
    line: string;
    level?: "info" | "warn" | "error";
  },
) {
  const eventId = newId();
  const now = nowSeconds();
  return [
    rawRun(
      db,
      q`INSERT INTO events (event_id, ctime, user_id, kind, entity_type, entity_id, data)
      SELECT ${eventId}, ${now}, ${e.userId}, ${e.kind}, 'task', ${e.jobId}, ${JSON.stringify(e.data)} WHERE changes() > 0`,
    ),
    rawRun(
      db,
      q`INSERT INTO task_logs (job_id, run, ts, level, line)
      SELECT ${e.jobId}, ${e.run}, ${now}, ${e.level ?? "info"}, ${e.line.slice(0, 2000)} WHERE EXISTS (SELECT 1 FROM events WHERE event_id = ${eventId})`,
    ),
  ] as const;
}
