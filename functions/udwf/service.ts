import { desc, eq, inArray, sql } from "drizzle-orm";
import { udwfRuns, udwfShares, udwfSteps, udwfWorkflows, users, type UdwfWorkflow } from "../../db/schema";
import {
  accessContext,
  ownsOrAdmin,
  requireOwned,
  sharedAccess,
  sharedLevel,
  sharedNeed,
  type SharedAccess,
  type ShareGrant,
} from "../lib/access";
import { ownedOrShared } from "../lib/access-sql";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId, randomSecret } from "../lib/ids";
import { idList } from "../lib/sql";
import { reachProblems, unreachable } from "./acting";
import { nextCronTime } from "./schedule";
import type { SetupBody, WorkflowOut } from "../../shared/udwf/schemas";
import { checkedSetup } from "./validate";

/**
 * Workflows: their owner and admins see, change, share and delete them; users and teams they are shared with view or
 * edit (and run) them; to anyone else they do not exist (404, like a missing one). A workflow acts only where its owner
 * and its actor (whoever last saved its setup or enabled it) both hold the rights, and a manual run within its caller's
 * too (./acting.ts; docs/decisions/047-automations.md, 050-automations-speed-sharing-link-opened.md, 025-threat-model.md).
 */

const workflowNotFoundMessage = "Автоматизация не найдена";

/** The shares of these workflows, by workflow. */
export async function sharesOf(db: Db, ids: string[]) {
  const rows = ids.length
    ? await db
        .select()
        .from(udwfShares)
        .where(inArray(udwfShares.workflowId, idList(ids)))
    : [];
  const by = new Map<string, ShareGrant[]>();
  for (const r of rows) by.set(r.workflowId, [...(by.get(r.workflowId) ?? []), { subjType: r.subjType, subjId: r.subjId, role: r.role }]);
  return by;
}

/**
 * The workflow with the caller's access to it, when that covers `need`: anyone it is not shared with gets 404 (like
 * a missing one), a viewer asking to change it 403.
 */
export async function loadWorkflow(db: Db, auth: AuthUser, id: string, need: SharedAccess = "edit") {
  const forbidden = need === "owner" ? "Это может только владелец автоматизации" : "Автоматизация открыта вам только для просмотра";
  const [{ row: wf, permissions }] = await requireOwned(db, auth, sharedNeed[need], "workflow", [id], {
    notFound: workflowNotFoundMessage,
    forbidden,
  });
  return { wf, access: sharedLevel(permissions)! };
}

const hookUrl = (wf: UdwfWorkflow, origin: string) =>
  wf.hookSecret && wf.trigger?.type === "webhook" ? `${origin}/api/udwf/hook/${wf.workflowId}/${wf.hookSecret}` : null;

/** A viewer sees the setup without its secrets: a webhook step's signing secret and the incoming hook's URL. */
const withoutSecrets = (steps: UdwfWorkflow["steps"]) =>
  steps.map((st) => (st.action === "webhook.call" ? { ...st, params: { ...st.params, secret: undefined } } : st));

async function outOf(db: Db, rows: { wf: UdwfWorkflow; access: SharedAccess }[], origin: string): Promise<WorkflowOut[]> {
  if (!rows.length) return [];
  const ids = idList(rows.map((r) => r.wf.workflowId));
  const [owners, stats] = await db.batch([
    db
      .select({ id: users.userId, name: users.userName })
      .from(users)
      .where(inArray(users.userId, idList([...new Set(rows.flatMap((r) => [r.wf.owner, r.wf.actor ?? r.wf.owner]))]))),
    db.all<{ workflow_id: string; runs: number; run_id: string | null; status: string | null; time: number | null }>(sql`
      SELECT w.workflow_id,
        (SELECT COUNT(*) FROM udwf_runs r WHERE r.workflow_id = w.workflow_id) AS runs,
        l.run_id, l.status, l.ctime AS time
      FROM udwf_workflows w
      LEFT JOIN udwf_runs l ON l.run_id = (SELECT r.run_id FROM udwf_runs r WHERE r.workflow_id = w.workflow_id ORDER BY r.ctime DESC, r.rowid DESC LIMIT 1)
      WHERE w.workflow_id IN ${ids}`),
  ]);
  const names = new Map(owners.map((o) => [o.id, o.name]));
  const stat = new Map(stats.map((s) => [s.workflow_id, s]));
  return rows.map(({ wf: w, access }) => {
    const s = stat.get(w.workflowId);
    const editor = access !== "view";
    return {
      workflow_id: w.workflowId,
      owner: w.owner,
      owner_name: names.get(w.owner) ?? null,
      actor: w.actor ?? w.owner,
      actor_name: names.get(w.actor ?? w.owner) ?? null,
      name: w.name,
      description: w.description,
      enabled: w.enabled,
      trigger: w.trigger ?? null,
      conditions: w.conditions,
      steps: editor ? w.steps : withoutSecrets(w.steps),
      hook_url: editor ? hookUrl(w, origin) : null,
      last_run: s?.run_id ? { run_id: s.run_id, status: s.status ?? "", time: s.time ?? 0 } : null,
      runs_count: s?.runs ?? 0,
      access,
      ctime: w.ctime,
      mtime: w.mtime,
    };
  });
}

/** The caller's workflows and those shared with them or their teams (an admin's: everyone's), newest first. */
export async function listWorkflows(db: Db, auth: AuthUser, origin: string) {
  const ctx = await accessContext(db, auth);
  const rows = await db
    .select()
    .from(udwfWorkflows)
    .where(ownedOrShared(ctx, { id: udwfWorkflows.workflowId, owner: udwfWorkflows.owner }, { table: "udwf_shares", key: "workflow_id" }))
    .orderBy(desc(udwfWorkflows.ctime))
    .limit(500)
    .all();
  // Shares only matter for workflows the caller neither owns nor administers.
  const shares = await sharesOf(
    db,
    rows.filter((r) => !ownsOrAdmin(ctx, r.owner)).map((r) => r.workflowId),
  );
  const withAccess = await Promise.all(
    rows.map(async (wf) => ({
      wf,
      access: (await sharedAccess(db, auth, wf.owner, shares.get(wf.workflowId) ?? [])) ?? ("view" as const),
    })),
  );
  return { items: await outOf(db, withAccess, origin) };
}

export async function getWorkflow(db: Db, auth: AuthUser, id: string, origin: string) {
  return (await outOf(db, [await loadWorkflow(db, auth, id, "view")], origin))[0];
}

const wfEvent = (auth: AuthUser, kind: string, id: string, data?: Record<string, unknown>) =>
  ({ kind, userId: auth.userId, entityType: "workflow", entityId: id, data }) as const;

export async function createWorkflow(db: Db, auth: AuthUser, body: { name: string; description?: string }) {
  const id = newId();
  const now = nowSeconds();
  await db.batch([
    db
      .insert(udwfWorkflows)
      .values({ workflowId: id, owner: auth.userId, name: body.name, description: body.description ?? "", ctime: now, mtime: now }),
    eventInsert(db, wfEvent(auth, "workflow.create", id, { name: body.name })),
  ]);
  return { workflow_id: id };
}

export async function patchWorkflow(db: Db, auth: AuthUser, id: string, body: { name?: string; description?: string }) {
  await loadWorkflow(db, auth, id, "edit");
  await db.batch([
    db
      .update(udwfWorkflows)
      .set({ ...body, mtime: nowSeconds() })
      .where(eq(udwfWorkflows.workflowId, id)),
    eventInsert(db, wfEvent(auth, "workflow.update", id, body)),
  ]);
  return { ok: true as const };
}

/** Deletes the workflow with its run history. */
export async function deleteWorkflow(db: Db, auth: AuthUser, id: string) {
  await loadWorkflow(db, auth, id, "owner");
  await db.batch([
    db.delete(udwfShares).where(eq(udwfShares.workflowId, id)),
    db.delete(udwfSteps).where(sql`${udwfSteps.runId} IN (SELECT run_id FROM udwf_runs WHERE workflow_id = ${id})`),
    db.delete(udwfRuns).where(eq(udwfRuns.workflowId, id)),
    db.delete(udwfWorkflows).where(eq(udwfWorkflows.workflowId, id)),
    eventInsert(db, wfEvent(auth, "workflow.delete", id)),
  ]);
  return { ok: true as const };
}

/**
 * Saves trigger, conditions and steps once they pass the catalogue and both the saver's and the owner's rights
 * (./validate.ts); the saver becomes the workflow's actor, whose rights bound its runs from now on.
 */
export async function setupWorkflow(db: Db, auth: AuthUser, id: string, body: SetupBody) {
  const { wf } = await loadWorkflow(db, auth, id, "edit");
  const setup = await checkedSetup(db, wf, body, auth);
  const now = nowSeconds();
  const hookSecret = setup.trigger.type === "webhook" ? (wf.hookSecret ?? randomSecret(24)) : null;
  await db.batch([
    db
      .update(udwfWorkflows)
      .set({
        trigger: setup.trigger,
        conditions: setup.conditions,
        steps: setup.steps,
        hookSecret,
        nextRunAt: setup.trigger.type === "schedule" ? nextCronTime(setup.trigger.cron!, now) : null,
        actor: auth.userId,
        mtime: now,
      })
      .where(eq(udwfWorkflows.workflowId, id)),
    eventInsert(db, wfEvent(auth, "workflow.setup", id, { trigger: setup.trigger.type, steps: setup.steps.map((s) => s.action) })),
  ]);
  return { ok: true as const };
}

/**
 * Enabling checks the setup against the one enabling it (and the owner) as saving does, and makes them the actor: a
 * workflow whose actor was disabled comes back only through someone who holds the rights. Disabling checks nothing.
 */
export async function enableWorkflow(db: Db, auth: AuthUser, id: string, enabled: boolean) {
  const { wf } = await loadWorkflow(db, auth, id, "edit");
  if (enabled && (!wf.trigger || !wf.steps.length))
    throw new ApiError("validation", "Неверные данные: «enabled»: сначала задайте запуск и шаги", [
      { field: "enabled", message: "сначала задайте запуск и шаги" },
    ]);
  if (enabled) {
    const setup = { trigger: wf.trigger, conditions: wf.conditions, steps: wf.steps } as unknown as SetupBody;
    const denied = await reachProblems(db, wf, setup, auth);
    if (denied.length) throw unreachable(denied);
  }
  const now = nowSeconds();
  await db.batch([
    db
      .update(udwfWorkflows)
      .set({
        enabled,
        mtime: now,
        ...(enabled && !wf.enabled ? { enabledAt: now } : {}),
        ...(enabled ? { actor: auth.userId } : {}),
        ...(enabled && wf.trigger?.type === "schedule" ? { nextRunAt: nextCronTime(String(wf.trigger.cron), now) } : {}),
      })
      .where(eq(udwfWorkflows.workflowId, id)),
    eventInsert(db, wfEvent(auth, enabled ? "workflow.enable" : "workflow.disable", id)),
  ]);
  return { ok: true as const };
}
