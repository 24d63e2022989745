import { eq } from "drizzle-orm";
import { udwfRuns, udwfWorkflows } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { accessContext, requireAccess, resolveObjects } from "../lib/access";
import { getDb, type Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError, type ErrorDetail } from "../lib/errors";
import { newId, sameSecret } from "../lib/ids";
import { invalidFields } from "../lib/validation";
import { lacking, stepNeeds, unreachable } from "./acting";
import { sendRuns } from "./run-queue";
import { assetActions, type ExecuteBody, type FormField, type Step } from "../../shared/udwf/schemas";
import { loadWorkflow } from "./service";

/** Manual runs (with the trigger form) and incoming-webhook runs: both insert a run and send its message. */

export async function triggerForm(db: Db, auth: AuthUser, id: string) {
  const { wf } = await loadWorkflow(db, auth, id, "edit");
  const fields = ((wf.trigger?.form as FormField[] | undefined) ?? []).map((f) => ({ ...f, default: f.default ?? null }));
  return { fields, entities: (wf.steps as Step[]).some((s) => assetActions.includes(s.action)) };
}

function checkedForm(fields: FormField[], form: ExecuteBody["form"]) {
  const details: ErrorDetail[] = [];
  const out: Record<string, string | number | boolean> = {};
  for (const f of fields) {
    const v = form[f.name] ?? f.default;
    if (v === undefined || v === "") {
      if (f.required) details.push({ field: `form.${f.name}`, message: "обязательное поле" });
      continue;
    }
    if (typeof v !== f.type) details.push({ field: `form.${f.name}`, message: `должно быть: ${f.type}` });
    else out[f.name] = v;
  }
  if (details.length) throw invalidFields(details);
  return out;
}

async function insertRun(db: Db, workflowId: string, triggerKey: string, input: Record<string, unknown>) {
  const [row] = await db
    .insert(udwfRuns)
    .values({ runId: newId(), workflowId, triggerKey, status: "queued", input, ctime: nowSeconds() })
    .onConflictDoNothing()
    .returning({ id: udwfRuns.runId });
  return row?.id ?? null;
}

/**
 * The caller of a manual run must hold what every step needs on every entity and on the group it names: a run acts
 * only within its caller's rights too (./acting.ts, which the steps check again as they act). 403 naming the step.
 */
async function requireCallerRights(db: Db, auth: AuthUser, steps: Step[], entities: string[]) {
  const needs = steps.map(stepNeeds);
  const targets = needs.flatMap((n) => (n.target ? [n.target.id] : []));
  const [ctx, objects] = await Promise.all([accessContext(db, auth), resolveObjects(db, [...entities, ...targets])]);
  const details: ErrorDetail[] = [];
  needs.forEach((n, i) => {
    const miss = entities.map((e) => lacking(ctx, objects.get(e), n.subject)).find((p) => p !== null);
    if (miss) details.push({ field: `steps.${i}`, message: `у вас нет права «${miss}» на выбранные объекты` });
    const target = n.target && objects.get(n.target.id);
    const missTarget = n.target && lacking(ctx, target?.type === "group" ? target : undefined, [n.target.permission]);
    if (missTarget)
      details.push({
        field: `steps.${i}.params.to`,
        message: missTarget === "read" ? "нет такой группы или у вас нет к ней доступа" : `у вас нет права «${missTarget}» на эту группу`,
      });
  });
  if (details.length) throw unreachable(details);
}

/**
 * A manual run: one per entity (or one with none). The caller must read every entity and hold what the steps need
 * there; the run acts where the owner, the workflow's actor and the caller all may.
 */
export async function executeWorkflow(env: Env, auth: AuthUser, id: string, body: ExecuteBody) {
  const db = getDb(env);
  const { wf } = await loadWorkflow(db, auth, id, "edit");
  if (!wf.steps.length) throw new ApiError("conflict", "У автоматизации нет шагов: сначала настройте её");
  const form = checkedForm((wf.trigger?.form as FormField[] | undefined) ?? [], body.form);
  const entities = [...new Set(body.entities.map((e) => e.id))];
  if (entities.length) await requireAccess(db, auth, "read", entities);
  await requireCallerRights(db, auth, wf.steps as Step[], entities);
  const subjects = body.entities.length ? body.entities : [null];
  const runIds: string[] = [];
  for (const entity of subjects) {
    const runId = await insertRun(db, id, `manual:${newId()}`, { source: "manual", by: auth.userId, entity, form });
    if (runId) runIds.push(runId);
  }
  await sendRuns(env, runIds);
  return { run_id: runIds[0], run_ids: runIds };
}

/**
 * POST /api/udwf/hook/{id}/{secret}: the secret is compared in constant time; a wrong one answers like a missing
 * workflow. A webhook-id (or Idempotency-Key) sent twice starts one run.
 */
export async function hookRun(env: Env, id: string, secret: string, payload: unknown, deliveryId: string | null) {
  const db = getDb(env);
  const wf = await db.select().from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, id)).get();
  if (!wf?.hookSecret || !wf.enabled || wf.trigger?.type !== "webhook" || !sameSecret(wf.hookSecret, secret))
    throw new ApiError("not_found", "Нет такого адреса");
  const body = JSON.stringify(payload ?? {});
  if (body.length > 64_000) throw new ApiError("payload_too_large", "Тело запроса больше 64 КБ");
  const key = `hook:${deliveryId ?? newId()}`;
  const runId = await insertRun(db, id, key, { source: "webhook", payload: JSON.parse(body), entity: null });
  if (runId) await sendRuns(env, [runId]);
  const existing = runId ?? (await db.select({ id: udwfRuns.runId }).from(udwfRuns).where(eq(udwfRuns.triggerKey, key)).get())?.id;
  return { run_id: existing ?? "", run_ids: runId ? [runId] : [] };
}
