import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

/**
 * User-defined workflows (docs/decisions/047-automations.md): a trigger, conditions and steps, kept as the JSON
 * the setup route validated against the action catalogue (functions/udwf/catalogue.ts). A workflow acts with its
 * owner's rights.
 */
export const udwfWorkflows = sqliteTable(
  "udwf_workflows",
  {
    workflowId: uuidKey("workflow_id"),
    owner: text("owner").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    trigger: text("trigger", { mode: "json" }).$type<Record<string, unknown>>(),
    conditions: text("conditions", { mode: "json" }).$type<Record<string, unknown>[]>().notNull().default([]),
    steps: text("steps", { mode: "json" }).$type<{ action: string; params: Record<string, unknown> }[]>().notNull().default([]),
    /**
     * Who last changed the setup or enabled it (null: the owner). Runs act only where both the owner and this user
     * hold the rights a step needs, so an editor never borrows the owner's reach (docs/decisions/047, 050, 025).
     */
    actor: text("actor"),
    /** When it was last enabled: events older than this never start it (the dispatcher may read behind). */
    enabledAt: unixTime("enabled_at"),
    /** The secret part of the incoming-webhook URL (trigger type "webhook"). */
    hookSecret: text("hook_secret"),
    /** A schedule's next due time (croner), checked by the cron. */
    nextRunAt: unixTime("next_run_at"),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
  },
  (t) => [index("udwf_workflows_owner_idx").on(t.owner), index("udwf_workflows_enabled_idx").on(t.enabled)],
);

export type UdwfWorkflow = typeof udwfWorkflows.$inferSelect;

export const udwfRunStatuses = ["queued", "running", "waiting", "done", "failed", "stopped"] as const;
export type UdwfRunStatus = (typeof udwfRunStatuses)[number];

/** `step`: a step's own failure (an answer, a timeout); `denied`: a right or an object is missing; `internal`: a bug. */
export const udwfErrorClasses = ["step", "denied", "internal"] as const;
export type UdwfErrorClass = (typeof udwfErrorClasses)[number];

/**
 * One run of a workflow. (workflow_id, trigger_key) is unique: the same event, tick or request never starts
 * a workflow twice, however many dispatchers saw it.
 */
export const udwfRuns = sqliteTable(
  "udwf_runs",
  {
    runId: uuidKey("run_id"),
    workflowId: text("workflow_id").notNull(),
    triggerKey: text("trigger_key").notNull(),
    status: text("status").$type<UdwfRunStatus>().notNull(),
    /** How many workflow runs caused this one (1: a user's own change); chains stop at 5. */
    depth: integer("depth").notNull().default(1),
    /** What started it: the entity, the event, the form. */
    input: text("input", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    error: text("error"),
    /** What kind of failure the error is (functions/udwf/run-failure.ts): a step's answer, a missing right, or a bug. */
    errorClass: text("error_class").$type<UdwfErrorClass>(),
    /** Deliveries of the run's message that failed and were handed back to the queue (the «повтор N из M» figure). */
    retries: integer("retries").notNull().default(0),
    ctime: unixTime("ctime").notNull(),
    startedAt: unixTime("started_at"),
    finishedAt: unixTime("finished_at"),
    /** When the first step began, Unix milliseconds (trigger-to-first-step latency, the bench's figure). */
    firstStepAt: integer("first_step_at"),
  },
  (t) => [uniqueIndex("udwf_runs_trigger_idx").on(t.workflowId, t.triggerKey), index("udwf_runs_wf_idx").on(t.workflowId, t.ctime)],
);

export type UdwfRun = typeof udwfRuns.$inferSelect;

/** A run's step: claimed before it acts, so a duplicate delivery skips what is done or under way (run id + index). */
export const udwfSteps = sqliteTable(
  "udwf_steps",
  {
    runId: text("run_id").notNull(),
    step: integer("step").notNull(),
    action: text("action").notNull(),
    status: text("status").$type<"running" | "done" | "failed" | "waiting" | "stopped">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** A claim ends here: a step whose Worker died is picked up again after it. */
    leaseUntil: unixTime("lease_until"),
    output: text("output", { mode: "json" }).$type<Record<string, unknown>>(),
    log: text("log", { mode: "json" }).$type<string[]>().notNull().default([]),
    startedAt: unixTime("started_at"),
    finishedAt: unixTime("finished_at"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.step] })],
);

/** How far the dispatcher has read the events table (its rowid), one row. */
export const udwfCursor = sqliteTable("udwf_cursor", {
  id: integer("id").primaryKey(),
  lastRowid: integer("last_rowid").notNull(),
  /** One dispatcher at a time reads on (Unix seconds it holds until); the others leave the events to it. */
  leaseUntil: integer("lease_until").notNull().default(0),
});

export const udwfShareRoles = ["view", "edit"] as const;
export type UdwfShareRole = (typeof udwfShareRoles)[number];

/**
 * Who else may see (view) or change and run (edit) a workflow: a user, or a team (a group its users are members
 * of). The workflow still acts with its owner's rights (docs/decisions/050-automations-speed-sharing-link-opened.md).
 */
export const udwfShares = sqliteTable(
  "udwf_shares",
  {
    workflowId: text("workflow_id").notNull(),
    subjType: text("subj_type").$type<"user" | "team">().notNull(),
    subjId: text("subj_id").notNull(),
    role: text("role").$type<UdwfShareRole>().notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.subjType, t.subjId] }), index("udwf_shares_subj_idx").on(t.subjId)],
);
