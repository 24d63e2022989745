import { and, asc, eq, sql } from "drizzle-orm";
import { type UdwfErrorClass, udwfRuns, udwfSteps, udwfWorkflows, type UdwfRun, type UdwfRunStatus } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { getDb, type Db } from "../lib/db";
import type { Env } from "../lib/env";
import { literal } from "../lib/sql";
import { eventInsert, withCause } from "../lib/events";
import { act, type StepContext } from "./actions";
import { checkConditions, type Subject } from "./conditions";
import { errorClassOf, internalError, retryNoted } from "./run-failure";
import { sendRuns } from "./run-queue";
import { ownerOf, ownerQuery } from "../lib/owner";
import type { Condition, Step } from "../../shared/udwf/schemas";

/**
 * The step runner (docs/decisions/047-automations.md, 050): a run goes in the invocation that dispatched it, or by
 * its queue message (retries, manual and webhook runs). Each step is claimed by
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

const terminal: UdwfRunStatus[] = ["done", "failed", "stopped"];

async function finish(
  db: Db,
  run: UdwfRun,
  status: UdwfRunStatus,
  error: string | null,
  ownerId: string | null,
  errorClass: UdwfErrorClass | null = error && status === "failed" ? "denied" : null,
) {
  await db.batch([
    db
      .update(udwfRuns)
      .set({ status, error, errorClass, finishedAt: nowSeconds() })
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

/**
 * Claims step `index` (new, failed, waiting, or a running one whose lease ran out); no row comes back when someone
 * else holds it or it is over. A statement, so it can share a round trip with the previous step's settling.
 */
function claimStatement(db: Db, runId: string, index: number, action: string) {
  // Raw statements in a D1 batch bind nothing: the values are inlined (ids quoted by literal, numbers as such).
  const now = literal(nowSeconds());
  const until = literal(nowSeconds() + LEASE_SECONDS);
  return db.all<{ status: string; attempts: number; output: string | null }>(sql`
    INSERT INTO udwf_steps (run_id, step, action, status, attempts, lease_until, log, started_at)
    VALUES (${literal(runId)}, ${literal(Math.trunc(index))}, ${literal(action)}, 'running', 1, ${until}, '[]', ${now})
    ON CONFLICT (run_id, step) DO UPDATE SET status = 'running', attempts = udwf_steps.attempts + 1, lease_until = excluded.lease_until
      WHERE udwf_steps.status IN ('failed', 'waiting') OR (udwf_steps.status = 'running' AND udwf_steps.lease_until < ${now})
    RETURNING status, attempts, output`);
}

const claimed = (rows: { attempts: number; output: string | null }[]) =>
  rows[0] ? { attempts: rows[0].attempts, output: rows[0].output ? (JSON.parse(rows[0].output) as Record<string, unknown>) : null } : null;

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

/** The run, its workflow, the owner as the permission engine sees them, and the steps so far: one round trip. */
async function loadRun(db: Db, runId: string) {
  const wfOf = sql`(SELECT workflow_id FROM udwf_runs WHERE run_id = ${runId})`;
  const [runs, wfs, owners, steps] = await db.batch([
    db.select().from(udwfRuns).where(eq(udwfRuns.runId, runId)),
    db.select().from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, wfOf)),
    ownerQuery(db, sql`(SELECT owner FROM udwf_workflows WHERE workflow_id = ${wfOf})`),
    db.select().from(udwfSteps).where(eq(udwfSteps.runId, runId)).orderBy(asc(udwfSteps.step)),
  ]);
  return { run: runs[0], wf: wfs[0], owner: ownerOf(owners), steps };
}

/**
 * Runs (or goes on with) a run: its steps one after another in this invocation (a step that waits for a task ends
 * it, and the run's message comes back later). Throws to have the queue retry the message. Round trips: one to load,
 * one to start (status and the first claim), one per step that settles it and claims the next, plus the actions'.
 */
export async function runWorkflow(env: Env, runId: string): Promise<void> {
  const db = getDb(env);
  try {
    await runSteps(db, env, runId);
  } catch (err) {
    // A step's failure is already on the run; a bug anywhere else is put there now, then the queue retries.
    if (!(err instanceof StepFailed)) await retryNoted(db, runId, internalError(err), "internal").catch(() => {});
    throw err instanceof StepFailed ? err.cause : err;
  }
}

/** A step's failure that runSteps has recorded (with the run's retry count) before handing it to the queue. */
class StepFailed extends Error {}

async function runSteps(db: Db, env: Env, runId: string): Promise<void> {
  const { run, wf, owner, steps: done } = await loadRun(db, runId);
  if (!run || terminal.includes(run.status)) return;
  if (!wf) return finish(db, run, "failed", "Автоматизация удалена", null);
  if (!wf.enabled && run.input.source !== "manual") return finish(db, run, "stopped", "Автоматизация выключена", wf.owner);
  if (!owner) return finish(db, run, "failed", "Владелец автоматизации отключён", null);
  const subject = (run.input.entity as Subject | null) ?? null;
  const steps = wf.steps as Step[];
  if (run.status === "queued") {
    const met = await checkConditions(db, subject, wf.conditions as Condition[]);
    if (!met.ok) return finish(db, run, "stopped", `Условие ${met.failed + 1} не выполнено`, wf.owner);
  }
  const outputs: StepContext["outputs"] = Object.fromEntries(done.map((s) => [s.step, s.output]));
  const cause = { workflow: wf.workflowId, run: runId, depth: run.depth };
  const next = (from: number): { index: number; stopped: boolean } | null => {
    for (let i = from; i < steps.length; i++) {
      const prior = done.find((s) => s.step === i);
      if (prior?.status === "stopped") return { index: i, stopped: true };
      if (prior?.status !== "done") return { index: i, stopped: false };
    }
    return null;
  };
  let at = next(0);
  if (at?.stopped) return finish(db, run, "stopped", null, wf.owner);
  if (!at) return finish(db, run, "done", null, wf.owner);
  // Start: the run's status, its first step's time (the bench's latency) and the claim of the step due, together.
  const [, , firstClaim] = await db.batch([
    db
      .update(udwfRuns)
      .set({ status: "running", startedAt: nowSeconds() })
      .where(and(eq(udwfRuns.runId, runId), eq(udwfRuns.status, "queued"))),
    db
      .update(udwfRuns)
      .set({ firstStepAt: Date.now() })
      .where(and(eq(udwfRuns.runId, runId), sql`${udwfRuns.firstStepAt} IS NULL`)),
    claimStatement(db, runId, at.index, steps[at.index].action),
  ]);
  let claim = claimed(firstClaim);
  while (at) {
    const index: number = at.index;
    const step = steps[index];
    if (!claim) return; // Another delivery holds it and will go on from there.
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
      previous: claim.output,
    };
    let result: Awaited<ReturnType<typeof act>>;
    try {
      result = await withCause(cause, () => act(step, ctx));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const line = `попытка ${claim.attempts}: ${message}`;
      // No retry mends a missing right or object: the run fails now. Anything else is tried again with backoff.
      const errorClass = errorClassOf(err);
      const permanent = errorClass === "denied";
      const runError = `Шаг ${index + 1}: ${message}`;
      await db.batch([
        db
          .update(udwfSteps)
          .set({ status: "failed", log: appendLog(line) as never, leaseUntil: null, finishedAt: nowSeconds() })
          .where(and(eq(udwfSteps.runId, runId), eq(udwfSteps.step, index))),
        stepEvent(db, run, wf.owner, index, step.action, "failed", line),
        permanent
          ? db.update(udwfRuns).set({ error: runError }).where(eq(udwfRuns.runId, runId))
          : retryNoted(db, runId, runError, errorClass),
      ]);
      if (permanent) return finish(db, run, "failed", runError, wf.owner, errorClass);
      throw new StepFailed(message, { cause: err });
    }
    if (result.wait) {
      await settle(db, runId, index, "waiting", result.output, result.log);
      await db.update(udwfRuns).set({ status: "waiting" }).where(eq(udwfRuns.runId, runId));
      await sendRuns(env, [runId], WAIT_SECONDS);
      return;
    }
    outputs[index] = result.output;
    at = result.stop ? null : next(index + 1);
    // The step's outcome, its event, and the next step's claim: one round trip.
    const [, , , nextClaim] = await db.batch([
      db
        .update(udwfSteps)
        .set({
          status: result.stop ? "stopped" : "done",
          output: result.output,
          log: appendLog(`попытка ${claim.attempts}: ${result.log}`) as never,
          leaseUntil: null,
          finishedAt: nowSeconds(),
        })
        .where(and(eq(udwfSteps.runId, runId), eq(udwfSteps.step, index))),
      db.update(udwfRuns).set({ status: "running", error: null }).where(eq(udwfRuns.runId, runId)),
      stepEvent(db, run, wf.owner, index, step.action, "done", result.log),
      at ? claimStatement(db, runId, at.index, steps[at.index].action) : db.all(sql`SELECT 1`),
    ]);
    if (result.stop) return finish(db, run, "stopped", null, wf.owner);
    claim = at ? claimed(nextClaim as { attempts: number; output: string | null }[]) : null;
  }
  await finish(db, run, "done", null, wf.owner);
}

/** The dead-letter consumer: every try of a step failed; the run ends failed, its step logs say why. */
export async function failRunForGood(env: Env, runId: string) {
  const db = getDb(env);
  const run = await db.select().from(udwfRuns).where(eq(udwfRuns.runId, runId)).get();
  if (!run || terminal.includes(run.status)) return;
  const wf = await db.select({ owner: udwfWorkflows.owner }).from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, run.workflowId)).get();
  await finish(
    db,
    run,
    "failed",
    `${run.error ?? "Шаг не удался"} — все повторы исчерпаны`,
    wf?.owner ?? null,
    run.errorClass ?? "internal",
  );
}
