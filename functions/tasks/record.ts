import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { newId } from "../lib/ids";
import { inlined } from "../lib/sql";

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
    db.run(
      inlined`INSERT INTO events (event_id, ctime, user_id, kind, entity_type, entity_id, data)
      SELECT ${eventId}, ${now}, ${e.userId}, ${e.kind}, 'task', ${e.jobId}, ${JSON.stringify(e.data)} WHERE changes() > 0`,
    ),
    db.run(
      inlined`INSERT INTO task_logs (job_id, run, ts, level, line)
      SELECT ${e.jobId}, ${e.run}, ${now}, ${e.level ?? "info"}, ${e.line.slice(0, 2000)} WHERE EXISTS (SELECT 1 FROM events WHERE event_id = ${eventId})`,
    ),
  ] as const;
}

/**
 * followUps for a status change the system makes (the transcoder, the dispatcher): no user; the event says
 * what happened and the state it went from and to.
 */
export const systemStatusFollowUps = (
  db: Db,
  t: { jobId: string; run: number; status: string },
  change: { event: string; from?: string; to: string; line: string; level?: "info" | "warn" | "error" },
) =>
  followUps(db, {
    kind: "task.status",
    userId: null,
    jobId: t.jobId,
    run: t.run,
    data: { event: change.event, from: change.from ?? t.status, to: change.to },
    line: change.line,
    ...(change.level ? { level: change.level } : {}),
  });
