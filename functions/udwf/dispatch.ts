import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { tasks, udwfRuns, udwfWorkflows, type UdwfWorkflow } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { JobMessage } from "../../queues/messages";
import { accessContext, permissionsOn, resolveObjects, type AccessContext } from "../lib/access";
import { getDb, type Db } from "../lib/db";
import type { Env } from "../lib/env";
import { newId } from "../lib/ids";
import { idList } from "../lib/sql";
import { ownerAuth } from "./owner";
import { nextCronTime } from "./schedule";
import { MAX_DEPTH, type TriggerType } from "./schemas";

/**
 * Events → runs (docs/decisions/047-automations.md). The events table is the outbox: every change already writes
 * its event in the same batch, so the dispatcher reads the events after its cursor, matches them against the
 * enabled workflows and inserts one run per (workflow, event). The unique (workflow_id, trigger_key) makes that
 * idempotent, so two dispatchers reading the same events (a request's and a queue batch's) start each run once,
 * and only the one whose insert landed sends the run's queue message. It runs after every changing API request,
 * after every queue batch and on the cron, which also re-sends runs whose message was lost.
 */

const kindTrigger: Record<string, TriggerType> = {
  "upload.complete": "asset.uploaded",
  "field.create": "field.changed",
  "field.update": "field.changed",
  "tag.attach": "tag.added",
  "task.status": "task.finished",
  "share-link.create": "share-link.created",
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

/** Reads up to `limit` events after the cursor; answers how many runs it started. */
export async function dispatchEvents(env: Env, limit = 500): Promise<number> {
  const db = getDb(env);
  const [cursorRows, wfs] = await db.batch([
    // The newest event now: what is read is (cursor, top], so an event written meanwhile waits for the next round.
    db.all<{ last: number; top: number }>(
      sql`SELECT last_rowid AS last, (SELECT COALESCE(MAX(rowid), 0) FROM events) AS top FROM udwf_cursor WHERE id = 1`,
    ),
    db
      .select()
      .from(udwfWorkflows)
      .where(and(eq(udwfWorkflows.enabled, true), sql`json_extract(${udwfWorkflows.trigger}, '$.type') IN ${idList(eventTriggers)}`)),
  ]);
  const cursor = cursorRows[0]?.last ?? 0;
  const top = cursorRows[0]?.top ?? 0;
  // Only forward: a slower dispatcher that read less never moves the cursor back.
  const advance = (to: number) => db.run(sql`UPDATE udwf_cursor SET last_rowid = MAX(last_rowid, ${to}) WHERE id = 1`);
  if (top <= cursor) return 0;
  if (!wfs.length) {
    // Nothing listens: the cursor only moves on, so enabling a workflow later does not replay this.
    await advance(top);
    return 0;
  }
  const rows = await db.all<EventRow>(sql`
    SELECT rowid, event_id, kind, ctime, entity_type, entity_id, data FROM events
    WHERE rowid > ${cursor} AND rowid <= ${top} AND kind IN ${idList(Object.keys(kindTrigger))} ORDER BY rowid LIMIT ${limit}`);
  const last = rows.length === limit ? rows[rows.length - 1].rowid : null;
  const candidates: Candidate[] = [];
  for (const ev of rows) {
    const data = (ev.data ? JSON.parse(ev.data) : {}) as Record<string, unknown>;
    const type = kindTrigger[ev.kind];
    if (type === "task.finished" && data.to !== "done" && data.to !== "error") continue;
    const cause = data.udwf as { workflow: string; depth: number } | undefined;
    const depth = (cause?.depth ?? 0) + 1;
    for (const wf of wfs) {
      const t = wf.trigger as { type: string; tag_id?: string; def_id?: string; status?: string };
      if (t.type !== type || ev.ctime < (wf.enabledAt ?? 0)) continue;
      // A workflow's own changes never start it again; a chain through others stops at MAX_DEPTH.
      if (cause?.workflow === wf.workflowId || depth > MAX_DEPTH) continue;
      if (t.tag_id && !(data.tag_ids as string[] | undefined)?.includes(t.tag_id)) continue;
      if (t.def_id && data.def_id !== t.def_id) continue;
      if (t.status && data.to !== t.status) continue;
      candidates.push({ wf, ev, data, entity: null, depth });
    }
  }
  const started = await startRuns(db, env, await placed(db, candidates));
  await advance(last ?? top);
  return started;
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
  for (const c of live) {
    if (!contexts.has(c.wf.owner)) {
      const owner = await ownerAuth(db, c.wf.owner);
      contexts.set(c.wf.owner, owner ? await accessContext(db, owner) : null);
    }
    const ctx = contexts.get(c.wf.owner);
    const obj = objects.get(c.entity!.id);
    if (!ctx || !obj || !permissionsOn(ctx, obj)) continue;
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

/** Inserts the runs (a repeat of one changes nothing) and sends a message for each that is new. */
async function startRuns(db: Db, env: Env, candidates: Candidate[]): Promise<number> {
  if (!candidates.length) return 0;
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
  const inserted: string[] = [];
  for (let i = 0; i < rows.length; i += 10) {
    const got = await db
      .insert(udwfRuns)
      .values(rows.slice(i, i + 10))
      .onConflictDoNothing()
      .returning({ id: udwfRuns.runId });
    inserted.push(...got.map((r) => r.id));
  }
  await sendRuns(env, inserted);
  return inserted.length;
}

export async function sendRuns(env: Env, runIds: string[], delaySeconds?: number) {
  for (let i = 0; i < runIds.length; i += 100) {
    const msgs = runIds.slice(i, i + 100).map((runId) => ({ body: { type: "udwf-run", runId } as JobMessage, delaySeconds }));
    await env.JOBS.sendBatch(msgs);
  }
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
  await dispatchEvents(env, 2000);
  await runDueSchedules(env);
  await resumeStalledRuns(env);
}
