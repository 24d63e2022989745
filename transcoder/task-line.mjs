/**
 * One structured JSON log line per task the transcoder ran (docs/decisions/044-metrics-logs-errors.md). Built
 * from named fields only: never the job's signed source and destination URLs, its callback token, or an error
 * text (which can quote those URLs); the task's own log in the Worker keeps the error.
 */
import { laneOf } from "./lanes.mjs";

/** @param {{ job: { id: string, run: number, operation: string, priority?: number }, outcome: string, queuedMs: number, durationMs: number, worker?: string | null }} f */
export function taskLine({ job, outcome, queuedMs, durationMs, worker }) {
  return JSON.stringify({
    type: "task",
    time: new Date().toISOString(),
    task_id: job.id,
    run: job.run,
    operation: job.operation,
    lane: laneOf(job),
    priority: job.priority ?? 0,
    outcome,
    queued_ms: Math.max(0, Math.round(queuedMs)),
    duration_ms: Math.max(0, Math.round(durationMs)),
    worker: worker ?? null,
  });
}
