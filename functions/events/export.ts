import { and, sql, type SQL } from "drizzle-orm";
import { csvText } from "../lib/csv";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { EXPORT_BATCH, MAX_EXPORT_EVENTS, type EventsExportQuery } from "../../shared/events/schemas";
import { e, kindPrefix } from "./service";

/**
 * The events of a time range as CSV or NDJSON, oldest first, streamed (docs/decisions/044-metrics-logs-errors.md).
 * Paged by (ctime, rowid), which the ctime index serves in order, so each batch is one index range whatever the
 * table's size; nothing is held in memory but one batch.
 */

interface Row {
  rowid: number;
  event_id: string;
  time: number;
  kind: string;
  user_id: string | null;
  user_name: string | null;
  entity_type: string | null;
  entity_id: string | null;
  data: string | null;
}

export const exportColumns = ["event_id", "time", "kind", "user_id", "user_name", "entity_type", "entity_id", "data"] as const;

function filters(q: EventsExportQuery): SQL[] {
  const where = [sql`${e.ctime} >= ${q.from}`, sql`${e.ctime} <= ${q.to}`];
  if (q.kinds?.length) where.push(sql`(${sql.join(q.kinds.map(kindPrefix), sql` OR `)})`);
  return where;
}

const batch = (db: Db, q: EventsExportQuery, after: { ctime: number; rowid: number } | null) =>
  db.all<Row>(sql`
    SELECT e.rowid AS rowid, e.event_id, e.ctime AS time, e.kind, e.user_id, u.user_name, e.entity_type, e.entity_id, e.data
    FROM events e LEFT JOIN users u ON u.user_id = e.user_id
    WHERE ${and(...filters(q), after ? sql`(${e.ctime}, ${e.rowid}) > (${after.ctime}, ${after.rowid})` : undefined)}
    ORDER BY e.ctime, e.rowid
    LIMIT ${EXPORT_BATCH}`);

// Cells go through the one CSV writer (functions/lib/csv.ts), which keeps formulas from running in a spreadsheet.
const csvRows = (rows: Row[]) =>
  rows.map((r) => [r.event_id, new Date(r.time * 1000).toISOString(), r.kind, r.user_id, r.user_name, r.entity_type, r.entity_id, r.data]);

const ndjsonRow = (r: Row) =>
  JSON.stringify({
    event_id: r.event_id,
    time: r.time,
    kind: r.kind,
    user_id: r.user_id,
    user_name: r.user_name,
    entity_type: r.entity_type,
    entity_id: r.entity_id,
    data: r.data ? JSON.parse(r.data) : null,
  });

/** Refuses a range too large for one export before anything is streamed (the count reads the ctime index). */
export async function checkExportSize(db: Db, q: EventsExportQuery) {
  const [{ n }] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM events e WHERE ${and(...filters(q))}`);
  if (n > MAX_EXPORT_EVENTS)
    throw new ApiError("validation", "Слишком много событий для одной выгрузки", [
      { field: "from", message: `в периоде ${n} событий, больше ${MAX_EXPORT_EVENTS}: сузьте период` },
    ]);
}

export function exportEvents(db: Db, q: EventsExportQuery): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { ctime: number; rowid: number } | null = null;
  let first = true;
  return new ReadableStream({
    async pull(controller) {
      const rows = await batch(db, q, after);
      let text = "";
      if (q.format === "csv") {
        // A byte order mark, so spreadsheets read the Cyrillic as UTF-8.
        if (first) text += `\uFEFF${csvText([[...exportColumns]])}\r\n`;
        if (rows.length) text += `${csvText(csvRows(rows))}\r\n`;
      } else {
        text = rows.map((r) => `${ndjsonRow(r)}\n`).join("");
      }
      first = false;
      if (text) controller.enqueue(encoder.encode(text));
      if (rows.length < EXPORT_BATCH) return controller.close();
      const last = rows[rows.length - 1];
      after = { ctime: last.time, rowid: last.rowid };
    },
  });
}
