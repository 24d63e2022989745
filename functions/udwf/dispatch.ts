import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { tasks, udwfRuns, udwfWorkflows, type UdwfWorkflow } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, permissionsOn, resolveObjects, type AccessContext } from "../lib/access";
import { getDb, type Db } from "../lib/db";
import type { Env } from "../lib/env";
import { newId } from "../lib/ids";
import { idList } from "../lib/sql";
import { ownerAuth } from "../lib/owner";
import { runWorkflow } from "./runner";
import { sendRuns, udwfRetryDelay } from "./run-queue";
import { nextCronTime } from "./schedule";
import { MAX_DEPTH, type TriggerType } from "../../shared/udwf/schemas";

/**
 * Events → runs (docs/decisions/047-automations.md). The events table is the outbox: every change already writes
 * its event in the same batch, so the dispatcher reads the events after its cursor, matches them against the
 * enabled workflows and inserts one run per (workflow, event). The unique (workflow_id, trigger_key) makes that
 * idempotent, and only the one whose insert landed starts the run, in its own invocation (decision 050). It runs
 * after every changing API request, after every queue batch, after a share link's view and on the cron, one at a
 * time (a lease on the cursor); the cron also re-sends runs that made no progress (a lost message, a dead Worker).
 */

const kindTrigger: Record<string, TriggerType> = {
  "upload.complete": "asset.uploaded",
  "field.create": "field.changed",
  "field.update": "field.changed",
  "tag.attach": "tag.added",
  "task.status": "task.finished",
  "share-link.create": "share-link.created",
  // Written only while an enabled workflow listens (functions/sl/recipient.ts countView).
  "share-link.open": "share-link.opened",
  // A version's overall review status moved (functions/review/approval.ts); data.to is the new status.
  "review.status-changed": "review.status-changed",
  // A transcript saved by import or recognition (functions/transcripts/service.ts saveTranscript); an edit is not "ready".
  "transcript.import": "transcript.ready",
  "transcript.asr": "transcript.ready",
};
const eventTriggers = [...new Set(Object.values(kindTrigger))];

interface EventRow {
  rowid: number;
  event_id: string;
  kind: string;
  ctime: number;
  entity_type: string | null;
  entity_id: string | null;
  data: string | null;
}

type Candidate = {
  wf: UdwfWorkflow;
  ev: EventRow;
  data: Record<string, unknown>;
  entity: { id: string; type: string } | null;
  depth: number;
};

/** How long a dispatcher holds the events (ms) before another may take over (its Worker may have died). */
const LEASE_MS = 30_000;
/** Events read per round: a round ends (and moves the cursor) well inside a waitUntil's 30 s. */
const ROUND = 200;

/**
 * Dispatches the events after the cursor, one dispatcher at a time: it takes the cursor's lease (only when there
 * are new events, so an idle call costs one statement), reads rounds of `limit` events, moves the cursor after
 * each, and goes on until nothing new is left or `maxRounds` ran out. A caller that finds the lease held returns at
 * once: the holder reads its events too, since it looks again after letting go. Answers how many runs it started.
 *
 * Why: every changing request and every queue batch calls this. Without the lease, under load dozens of callers read
 * the same hundreds of events at once, each inserting the same runs (ignored as repeats), and one round took longer
 * than a waitUntil may live, so the cursor never moved: the dispatcher stalled.
 */
export async function dispatchEvents(env: Env, limit = ROUND, maxRounds = 10): Promise<number> {
  const db = getDb(env);
  let total = 0;
  // The runs started here write events of their own (a tag added may start another workflow): read on after them.
  for (let pass = 0; pass < MAX_DEPTH; pass++) {
    const started: string[] = [];
    try {
      await dispatchRounds(db, started, limit, maxRounds);
    } finally {
      await startNow(env, started);
    }
    total += started.length;
    if (!started.length) break;
  }
  return total;
}

/** How many new runs a dispatching invocation runs itself; the rest go to the queue. */
const INLINE_RUNS = 50;

/**
 * New runs start here, in the invocation that created them (after the lease is let go): a queue hop costs a batch
 * (locally, one batch at a time and only after the previous one, which measured as seconds under load). A run that
 * throws goes to the queue with the first backoff, where retries and the dead-letter path take over; a run whose
 * invocation dies mid-way keeps its step's lease and is sent again by the cron (resumeStalledRuns), as a lost
 * message is. Beyond INLINE_RUNS, runs go to the queue at once, so one request never carries a whole backlog.
 */
async function startNow(env: Env, runIds: string[]) {
  const here = runIds.slice(0, INLINE_RUNS);
  await sendRuns(env, runIds.slice(INLINE_RUNS));
  await Promise.all(
    here.map((id) =>
      runWorkflow(env, id).catch(async (err) => {
        console.error("automation run:", (err as Error).message);
        await sendRuns(env, [id], udwfRetryDelay(env, 1));
      }),
    ),
  );
}

async function dispatchRounds(db: Db, started: string[], limit: number, maxRounds: number) {
  for (let round = 0; round < maxRounds; round++) {
    const now = Date.now();
    const lease = now + LEASE_MS;
    const [held] = await db.all<{ last: number; top: number }>(sql`
      UPDATE udwf_cursor SET lease_until = ${lease}
      WHERE id = 1 AND lease_until <= ${now} AND last_rowid < (SELECT COALESCE(MAX(rowid), 0) FROM events)
      RETURNING last_rowid AS last, (SELECT COALESCE(MAX(rowid), 0) FROM events) AS top`);
    if (!held) return;
    let to = held.last;
    try {
      const got = await dispatchRound(db, held.last, held.top, limit);
      started.push(...got.started);
      to = got.to;
    } finally {
      // Moves the cursor (only forward) and lets go of the lease, unless it ran out and another dispatcher holds it now.
      await db.run(sql`
        UPDATE udwf_cursor SET last_rowid = MAX(last_rowid, ${to}),
          lease_until = CASE WHEN lease_until = ${lease} THEN 0 ELSE lease_until END
        WHERE id = 1`);
    }
  }
}

/** One round: the events in (cursor, top], at most `limit` of them; answers the runs started and where it stopped. */
async function dispatchRound(db: Db, cursor: number, top: number, limit: number) {
  const wfs = await db
    .select()
    .from(udwfWorkflows)
    .where(and(eq(udwfWorkflows.enabled, true), sql`json_extract(${udwfWorkflows.trigger}, '$.type') IN ${idList(eventTriggers)}`));
  // Nothing listens: the cursor only moves on, so enabling a workflow later does not replay this.
  if (!wfs.length) return { started: [] as string[], to: top };
  const rows = await db.all<EventRow>(sql`
    SELECT rowid, event_id, kind, ctime, entity_type, entity_id, data FROM events
    WHERE rowid > ${cursor} AND rowid <= ${top} AND kind IN ${idList(Object.keys(kindTrigger))} ORDER BY rowid LIMIT ${limit}`);
  const to = rows.length === limit ? rows[rows.length - 1].rowid : top;
  const candidates: Candidate[] = [];
  for (const ev of rows) {
    const data = (ev.data ? JSON.parse(ev.data) : {}) as Record<string, unknown>;
    const type = kindTrigger[ev.kind];
    if (type === "task.finished" && data.to !== "done" && data.to !== "error") continue;
    const cause = data.udwf as { workflow: string; depth: number } | undefined;
    const depth = (cause?.depth ?? 0) + 1;
    for (const wf of wfs) {
      const t = wf.trigger as { type: string; tag_id?: string; def_id?: string; status?: string; review_status?: string };
      if (t.type !== type || ev.ctime < (wf.enabledAt ?? 0)) continue;
      // A workflow's own changes never start it again; a chain through others stops at MAX_DEPTH.
      if (cause?.workflow === wf.workflowId || depth > MAX_DEPTH) continue;
      if (t.tag_id && !(data.tag_ids as string[] | undefined)?.includes(t.tag_id)) continue;
      if (t.def_id && data.def_id !== t.def_id) continue;
      if (t.status && data.to !== t.status) continue;
      if (t.review_status && data.to !== t.review_status) continue;
      candidates.push({ wf, ev, data, entity: null, depth });
    }
  }
  return { started: await startRuns(db, await placed(db, candidates)), to };
}

/**
 * Each candidate's entity (the asset or group the event is about; a task's or link's asset), kept only where the
 * workflow's owner can read it now and it lies in the trigger's group. Owners' rights are loaded once each.
 */
async function placed(db: Db, candidates: Candidate[]): Promise<Candidate[]> {
  if (!candidates.length) return [];
  const taskIds = candidates.filter((c) => c.ev.entity_type === "task").map((c) => c.ev.entity_id!);
  const taskRows = taskIds.length
    ? await db
        .select({ id: tasks.jobId, asset: tasks.assetId, template: tasks.templateId })
        .from(tasks)
        .where(inArray(tasks.jobId, idList(taskIds)))
    : [];
  const taskOf = new Map(taskRows.map((t) => [t.id, t]));
  for (const c of candidates) {
    if (c.ev.entity_type === "task") {
      const t = taskOf.get(c.ev.entity_id!);
      const want = (c.wf.trigger as { template?: string }).template;
      c.entity = t?.asset && (!want || want === t.template) ? { id: t.asset, type: "asset" } : null;
    } else if (c.ev.entity_type === "share_link") c.entity = typeof c.data.asset === "string" ? { id: c.data.asset, type: "asset" } : null;
    else if (c.ev.entity_type === "asset" || c.ev.entity_type === "group") c.entity = { id: c.ev.entity_id!, type: c.ev.entity_type };
  }
  const live = candidates.filter((c) => c.entity);
  const groupIds = live.map((c) => (c.wf.trigger as { group_id?: string }).group_id).filter((g): g is string => !!g);
  const objects = await resolveObjects(db, [...new Set([...live.map((c) => c.entity!.id), ...groupIds])]);
  const contexts = new Map<string, AccessContext | null>();
  const out: Candidate[] = [];
  // An enabled user's access context; null for one disabled or deleted.
  const contextOf = async (userId: string) => {
    if (!contexts.has(userId)) {
      const user = await ownerAuth(db, userId);
      contexts.set(userId, user ? await accessContext(db, user) : null);
    }
    return contexts.get(userId) ?? null;
  };
  for (const c of live) {
    const ctx = await contextOf(c.wf.owner);
    const obj = objects.get(c.entity!.id);
    if (!ctx || !obj || !permissionsOn(ctx, obj)) continue;
    // Nor where the actor (who last saved or enabled it) cannot read: an editor who widened the trigger learns
    // nothing of objects beyond their rights. A disabled actor's runs still start, to fail with the clear error.
    if (c.wf.actor && c.wf.actor !== c.wf.owner) {
      const actorCtx = await contextOf(c.wf.actor);
      if (actorCtx && !permissionsOn(actorCtx, obj)) continue;
    }
    const t = c.wf.trigger as { group_id?: string; subtree?: boolean };
    if (t.group_id) {
      const g = objects.get(t.group_id);
      if (g?.type !== "group") continue;
      const paths = obj.type === "asset" ? obj.placements : [obj.path];
      const inside = (p: string) =>
        t.subtree === false
          ? p === g.path || (obj.type === "group" && p.slice(0, p.slice(0, -1).lastIndexOf("/") + 1) === g.path)
          : p.startsWith(g.path);
      if (!paths.some(inside)) continue;
    }
    out.push(c);
  }
  return out;
}

/** Inserts the runs (a repeat of one changes nothing); answers the ids of those that are new (only their inserter runs them). */
async function startRuns(db: Db, candidates: Candidate[]): Promise<string[]> {
  if (!candidates.length) return [];
  const now = nowSeconds();
  const rows = candidates.map((c) => ({
    runId: newId(),
    workflowId: c.wf.workflowId,
    triggerKey: `event:${c.ev.event_id}`,
    status: "queued" as const,
    depth: c.depth,
    input: { source: "event", event: { id: c.ev.event_id, kind: c.ev.kind, data: c.data }, entity: c.entity },
    ctime: now,
  }));
  // Ten rows a statement (D1 binds at most 100 values), all statements in one round trip.
  const inserts = [];
  for (let i = 0; i < rows.length; i += 10)
    inserts.push(
      db
        .insert(udwfRuns)
        .values(rows.slice(i, i + 10))
        .onConflictDoNothing()
        .returning({ id: udwfRuns.runId }),
    );
  const got = await db.batch(inserts as unknown as [(typeof inserts)[0], ...(typeof inserts)[0][]]);
  return got.flat().map((r) => r.id);
}

/** The cron: schedules whose time has come (one run per due time, however often the cron fires). */
export async function runDueSchedules(env: Env, now = nowSeconds()): Promise<number> {
  const db = getDb(env);
  const due = await db
    .select()
    .from(udwfWorkflows)
    .where(and(eq(udwfWorkflows.enabled, true), isNotNull(udwfWorkflows.nextRunAt), lte(udwfWorkflows.nextRunAt, now)));
  const started: string[] = [];
  for (const wf of due) {
    const cron = String((wf.trigger as { cron?: string } | null)?.cron ?? "");
    const [run] = await db
      .insert(udwfRuns)
      .values({
        runId: newId(),
        workflowId: wf.workflowId,
        triggerKey: `cron:${wf.nextRunAt}`,
        status: "queued",
        input: { source: "schedule", due: wf.nextRunAt, entity: null },
        ctime: now,
      })
      .onConflictDoNothing()
      .returning({ id: udwfRuns.runId });
    await db
      .update(udwfWorkflows)
      .set({ nextRunAt: cron ? nextCronTime(cron, now) : null })
      .where(eq(udwfWorkflows.workflowId, wf.workflowId));
    if (run) started.push(run.id);
  }
  await sendRuns(env, started);
  return started.length;
}

/** The cron: runs with no progress for 5 minutes (a lost message, a Worker restart) are sent again; steps done stay done. */
export async function resumeStalledRuns(env: Env, now = nowSeconds()) {
  const db = getDb(env);
  const stalled = await db.all<{ run_id: string }>(sql`
    SELECT r.run_id FROM udwf_runs r WHERE r.status IN ('queued', 'running') AND r.ctime < ${now - 300}
      AND NOT EXISTS (SELECT 1 FROM udwf_steps s WHERE s.run_id = r.run_id AND COALESCE(s.lease_until, 0) > ${now})
    LIMIT 100`);
  await sendRuns(
    env,
    stalled.map((r) => r.run_id),
  );
}

/** Everything the cron does for automations. */
export async function automationsCron(env: Env) {
  await dispatchEvents(env, ROUND, 20);
  await runDueSchedules(env);
  await resumeStalledRuns(env);
}
