import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";
import { operationClasses } from "./task-templates";

/** Task status; the transitions: docs/decisions/011-tasks-and-transcoder.md. */
export const taskStatuses = ["none", "inqueue", "running", "paused", "canceled", "done", "error"] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/**
 * A task: one template applied to one variant. `run` counts hand-overs to the
 * transcoder; a callback carrying an older run (a paused, cancelled or re-dispatched attempt) is
 * refused, so a stale worker can never register anything. `dedupe_key` makes the upload consumer
 * idempotent: a message delivered twice finds its tasks already there.
 */
export const tasks = sqliteTable(
  "tasks",
  {
    jobId: uuidKey("job_id"),
    jobNum: integer("job_num").notNull(),
    templateId: text("template_id").notNull(),
    template: text("template").notNull(),
    operationClass: text("operation_class", { enum: operationClasses }).notNull(),
    /** The template's setup as it was when the task was made: editing a template never changes a queued task. */
    setup: text("setup", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    owner: text("owner"),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    /** Source variant id. */
    srcEntity: text("src_entity").notNull(),
    /** The variant the task makes (pre-assigned, so registering it twice is a no-op); null for metadata. */
    dstEntity: text("dst_entity"),
    affected: text("affected", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    workerInfo: text("worker_info"),
    status: text("status", { enum: taskStatuses }).notNull(),
    priority: integer("priority").notNull().default(0),
    progress: integer("progress").notNull().default(0),
    progressInfo: text("progress_info").notNull().default(""),
    run: integer("run").notNull().default(0),
    tokenHash: text("token_hash"),
    /** Last sign of life from the transcoder (seconds): the watchdog re-dispatches a silent task. */
    heartbeatAt: unixTime("heartbeat_at"),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    error: text("error"),
    dedupeKey: text("dedupe_key"),
    scheduleTime: unixTime("schedule_time").notNull(),
    startTime: unixTime("start_time"),
    stopTime: unixTime("stop_time"),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [
    uniqueIndex("tasks_job_num_unique").on(t.jobNum),
    uniqueIndex("tasks_dedupe_unique").on(t.dedupeKey),
    index("tasks_status_idx").on(t.status, t.priority),
    index("tasks_asset_idx").on(t.assetId),
    index("tasks_template_idx").on(t.templateId),
    index("tasks_owner_idx").on(t.owner),
  ],
);

export type Task = typeof tasks.$inferSelect;
