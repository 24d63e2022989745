import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/** A task's log: lines from the Worker (dispatch, retries) and from the transcoder (ffmpeg output). */
export const taskLogs = sqliteTable(
  "task_logs",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    jobId: text("job_id").notNull(),
    run: integer("run").notNull().default(0),
    ts: unixTime("ts").notNull(),
    level: text("level", { enum: ["info", "warn", "error"] })
      .notNull()
      .default("info"),
    line: text("line").notNull(),
  },
  (t) => [index("task_logs_job_idx").on(t.jobId, t.seq)],
);

export type TaskLog = typeof taskLogs.$inferSelect;
