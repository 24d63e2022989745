import type { TaskStatus } from "../../db/schema";

/**
 * The task state machine (docs/decisions/011-tasks-and-transcoder.md). Commands are what users send
 * (POST /api/tasklist/command/{id}); events are what the system does. Every change is a conditional
 * UPDATE … WHERE status IN (from), so two racing commands cannot both win.
 */
export const taskCommands = ["pause", "resume", "cancel", "restart"] as const;
export type TaskCommand = (typeof taskCommands)[number];

/** command → the statuses it is valid in, and the status it leads to. */
export const commandTable: Record<TaskCommand, { from: readonly TaskStatus[]; to: TaskStatus }> = {
  pause: { from: ["inqueue", "running"], to: "paused" },
  resume: { from: ["none", "paused"], to: "inqueue" },
  cancel: { from: ["none", "inqueue", "running", "paused"], to: "canceled" },
  restart: { from: ["done", "error", "canceled"], to: "inqueue" },
};

/** System events, for the record and for the tests: who may move a task where without a command. */
export const systemTable = {
  started: { from: ["inqueue"], to: "running" },
  finished: { from: ["running", "inqueue"], to: "done" },
  failed: { from: ["running", "inqueue"], to: "error" },
  /** The transcoder lost the task (restart without its journal): hand it over again. */
  requeued: { from: ["running"], to: "inqueue" },
} as const satisfies Record<string, { from: readonly TaskStatus[]; to: TaskStatus }>;

/** Commands valid in a status, in the order the UI shows them. */
export const commandsFor = (status: TaskStatus): TaskCommand[] => taskCommands.filter((c) => commandTable[c].from.includes(status));

/** Statuses in which the transcoder may be working on the task (callbacks accepted). */
export const liveStatuses: readonly TaskStatus[] = ["inqueue", "running"];
export const finalStatuses: readonly TaskStatus[] = ["canceled", "done", "error"];
