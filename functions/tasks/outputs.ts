import { taskLogs, type OperationClass, type Task } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";

/** The files each operation class writes, by name; the transcoder PUTs them to /api/task-cb/{id}/out/{name}. */
export const outputNames: Record<OperationClass, string[]> = {
  metadata: [],
  preview: ["preview"],
  proxy: ["proxy"],
  audio_proxy: ["audio"],
  document_proxy: ["proxy"],
  watermark: ["watermarked"],
  text: [],
  transcribe: [],
};

/** Classes whose output becomes a new variant (the others write into the source variant). */
export const makesVariant = (cls: OperationClass) =>
  cls === "proxy" || cls === "audio_proxy" || cls === "document_proxy" || cls === "watermark";

/** Outputs of one run live under a key of their own until the result registers them (nothing half-visible). */
export const stagingKey = (t: Pick<Task, "jobId">, run: number, name: string) => `tasks/${t.jobId}/r${run}/${name}`;

export const maxLogLine = 2000;

/** Inserts for task log lines, unexecuted, for a batch: chunks of 15 rows (D1 binds at most 100 values). */
export function logInserts(db: Db, jobId: string, run: number, lines: string[], level: "info" | "warn" | "error" = "info") {
  const ts = nowSeconds();
  const rows = lines.map((line) => ({ jobId, run, ts, level, line: line.slice(0, maxLogLine) }));
  const out = [];
  for (let i = 0; i < rows.length; i += 15) out.push(db.insert(taskLogs).values(rows.slice(i, i + 15)));
  return out;
}
