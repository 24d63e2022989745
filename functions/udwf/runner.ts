import { and, asc, eq, sql } from "drizzle-orm";
import { udwfRuns, udwfSteps, udwfWorkflows, type UdwfRun, type UdwfRunStatus } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb, type Db } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert, withCause } from "../lib/events";
import { act, type StepContext } from "./actions";
import { StepError } from "./step-error";
import { checkConditions, type Subject } from "./conditions";
import { sendRuns } from "./dispatch";
import { ownerAuth } from "./owner";
import type { Condition, Step } from "./schemas";

/**
 * The step runner (docs/decisions/047-automations.md): one queue message per run. Each step is claimed by
 * (run id, step index) before it acts, so a duplicate delivery skips the steps that are done (or under way
 * elsewhere) and never repeats an effect. A step that throws is retried by the queue with backoff; its attempts
 * and answers are in its log; after the last try the dead-letter consumer fails the run (failRunForGood). A step
 * that cannot succeed (no right, a missing object) fails the run at once. Steps act as the owner, inside the run's
 * event cause, so their events name the run and do not start the workflow again.
 */

/** A claimed step's lease: after it, a step whose Worker died is taken again. */
const LEASE_SECONDS = 120;
/** How long a task.run step with wait sleeps between looks. */
const WAIT_SECONDS = 10;

/** Backoff of a run's retries: UDWF_RETRY_BASE_SECONDS (default 5) × 2^(attempt-1), at most 5 minutes. */
export const udwfRetryDelay = (env: Env, attempts: number) =>
  Math.min(300, Number(env.UDWF_RETRY_BASE_SECONDS ?? 5) * 2 ** Math.max(0, attempts - 1));

const terminal: UdwfRunStatus[] = ["done", "failed", "stopped"];

async function finish(db: Db, run: UdwfRun, status: UdwfRunStatus, error: string | null, ownerId: string | null) {
  await db.batch([
    db
      .update(udwfRuns)
      .set({ status, error, finishedAt: nowSeconds() })
      .where(and(eq(udwfRuns.runId, run.runId), sql`${udwfRuns.status} NOT IN ('done', 'failed', 'stopped')`)),
    eventInsert(db, {
      kind: `workflow.run-${status}`,
      userId: ownerId,
      entityType: "workflow",
      entityId: run.workflowId,
      data: { run: run.runId, ...(error ? { error } : {}) },
    }),
  ]);
}

const stepEvent = (db: Db, run: UdwfRun, ownerId: string, index: number, action: string, status: string, log: string) =>
  eventInsert(db, {
    kind: "workflow.step",
    userId: ownerId,
    entityType: "workflow",
    entityId: run.workflowId,
    data: { run: run.runId, step: index, action, status, log: log.slice(0, 300) },
  });

/** Claims step `index` (new, failed, waiting, or a running one whose lease ran out); null when someone else holds it or it is over. */
async function claim(db: Db, runId: string, index: number, action: string) {
  const now = nowSeconds();
  const rows = await db.all<{ status: string; attempts: number; output: string | null }>(sql`
    INSERT INTO udwf_steps (run_id, step, action, status, attempts, lease_until, log, started_at)
    VALUES (${runId}, ${index}, ${action}, 'running', 1, ${now + LEASE_SECONDS}, '[]', ${now})
    ON CONFLICT (run_id, step) DO UPDATE SET status = 'running', attempts = udwf_steps.attempts + 1, lease_until = excluded.lease_until
      WHERE udwf_steps.status IN ('failed', 'waiting') OR (udwf_steps.status = 'running' AND udwf_steps.lease_until < ${now})
    RETURNING status, attempts, output`);
  return rows[0]
    ? { attempts: rows[0].attempts, output: rows[0].output ? (JSON.parse(rows[0].output) as Record<string, unknown>) : null }
    : null;
}

const appendLog = (line: string) => sql`json_insert(${udwfSteps.log}, '$[#]', ${line})`;

async function settle(db: Db, runId: string, index: number, status: string, output: Record<string, unknown> | null, line: string) {
  await db
    .update(udwfSteps)
    .set({
      status: status as never,
      output,
      log: appendLog(line) as never,
      leaseUntil: null,
      ...(status === "waiting" ? {} : { finishedAt: nowSeconds() }),
    })
    .where(and(eq(udwfSteps.runId, runId), eq(udwfSteps.step, index)));
}

/** Runs (or goes on with) a run. Throws to have the queue retry the message. */
export async function runWorkflow(env: Env, runId: string): Promise<void> {
  const db = getDb(env);
  const run = await db.select().from(udwfRuns).where(eq(udwfRuns.runId, runId)).get();
  if (!run || terminal.includes(run.status)) return;
  const wf = await db.select().from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, run.workflowId)).get();
  if (!wf) return finish(db, run, "failed", "Автоматизация удалена", null);
  if (!wf.enabled && run.input.source !== "manual") return finish(db, run, "stopped", "Автоматизация выключена", wf.owner);
  const owner = await ownerAuth(db, wf.owner);
  if (!owner) return finish(db, run, "failed", "Владелец автоматизации отключён", null);
  const subject = (run.input.entity as Subject | null) ?? null;
  if (run.status === "queued") {
    const met = await checkConditions(db, subject, wf.conditions as Condition[]);
    if (!met.ok) return finish(db, run, "stopped", `Условие ${met.failed + 1} не выполнено`, wf.owner);
    await db
      .update(udwfRuns)
      .set({ status: "running", startedAt: nowSeconds() })
      .where(and(eq(udwfRuns.runId, runId), eq(udwfRuns.status, "queued")));
  }
  const done = await db.select().from(udwfSteps).where(eq(udwfSteps.runId, runId)).orderBy(asc(udwfSteps.step));
  const outputs: StepContext["outputs"] = Object.fromEntries(done.map((s) => [s.step, s.output]));
  const cause = { workflow: wf.workflowId, run: runId, depth: run.depth };
  for (const [index, step] of (wf.steps as Step[]).entries()) {
    const prior = done.find((s) => s.step === index);
    if (prior?.status === "done") continue;
    if (prior?.status === "stopped") return finish(db, run, "stopped", null, wf.owner);
    const claimed = await claim(db, runId, index, step.action);
    if (!claimed) return; // Another delivery holds it and will go on from there.
    if (index === 0 && run.firstStepAt === null)
      await db
        .update(udwfRuns)
        .set({ firstStepAt: Date.now() })
        .where(and(eq(udwfRuns.runId, runId), sql`${udwfRuns.firstStepAt} IS NULL`));
    const ctx: StepContext = {
      db,
      env,
      owner,
      runId,
      workflowId: wf.workflowId,
      index,
      subject,
      input: run.input,
      outputs,
      previous: claimed.output,
    };
    let result: Awaited<ReturnType<typeof act>>;
    try {
      result = await withCause(cause, () => act(step, ctx));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const line = `попытка ${claimed.attempts}: ${message}`;
      await settle(db, runId, index, "failed", claimed.output, line);
      await stepEvent(db, run, wf.owner, index, step.action, "failed", line).run();
      // No retry mends a missing right or object: the run fails now. Anything else is tried again with backoff.
      const permanent = err instanceof ApiError || (err instanceof StepError && !err.retry);
      if (permanent) return finish(db, run, "failed", `Шаг ${index + 1}: ${message}`, wf.owner);
      await db
        .update(udwfRuns)
        .set({ error: `Шаг ${index + 1}: ${message}` })
        .where(eq(udwfRuns.runId, runId));
      throw err;
    }
    if (result.wait) {
      await settle(db, runId, index, "waiting", result.output, result.log);
      await db.update(udwfRuns).set({ status: "waiting" }).where(eq(udwfRuns.runId, runId));
      await sendRuns(env, [runId], WAIT_SECONDS);
      return;
    }
    await db.batch([
      db
        .update(udwfSteps)
        .set({
          status: result.stop ? "stopped" : "done",
          output: result.output,
          log: appendLog(`попытка ${claimed.attempts}: ${result.log}`) as never,
          leaseUntil: null,
          finishedAt: nowSeconds(),
        })
        .where(and(eq(udwfSteps.runId, runId), eq(udwfSteps.step, index))),
      db.update(udwfRuns).set({ status: "running", error: null }).where(eq(udwfRuns.runId, runId)),
      stepEvent(db, run, wf.owner, index, step.action, "done", result.log),
    ]);
    outputs[index] = result.output;
    if (result.stop) return finish(db, run, "stopped", null, wf.owner);
  }
  await finish(db, run, "done", null, wf.owner);
}

/** The dead-letter consumer: every try of a step failed; the run ends failed, its step logs say why. */
export async function failRunForGood(env: Env, runId: string) {
  const db = getDb(env);
  const run = await db.select().from(udwfRuns).where(eq(udwfRuns.runId, runId)).get();
  if (!run || terminal.includes(run.status)) return;
  const wf = await db.select({ owner: udwfWorkflows.owner }).from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, run.workflowId)).get();
  await finish(db, run, "failed", `${run.error ?? "Шаг не удался"} — все повторы исчерпаны`, wf?.owner ?? null);
}
