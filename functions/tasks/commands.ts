import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { tasks, variants, type Task, type TaskStatus, type TaskTemplate } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { inlined } from "../lib/sql";
import { requireAssets } from "../assets/guard";
import { taskFor } from "./access";
import { makesVariant } from "./outputs";
import { followUps } from "./record";
import { appliesTo } from "../../shared/tasks/schemas";
import { getTask } from "./service";
import { loadTemplate } from "./templates";
import { tellTranscoder } from "./transcoder";
import { commandTable, finalStatuses, type TaskCommand } from "../../shared/tasks/transitions";

/** Changing tasks: creation (by upload or by hand), commands and priority. Every change is one batch with its event. */

export interface NewTask {
  template: TaskTemplate;
  assetId: string;
  version: number;
  variantId: string;
  owner: string | null;
  priority?: number;
  hold?: boolean;
  /** Set for automatic tasks: the same upload message twice finds its task already there. */
  dedupeKey?: string;
}

/**
 * Inserts tasks (skipping dedupe-key duplicates) with their log line and event in the same batch;
 * the two follow-ups insert only if the task row did (its id is fresh), so a duplicate leaves no trace.
 */
export async function createTasks(db: Db, items: NewTask[], byUser: string | null) {
  const made: Task[] = [];
  for (const it of items) {
    const now = nowSeconds();
    const jobId = newId();
    const status: TaskStatus = it.hold ? "none" : "inqueue";
    const inserted = inlined`EXISTS (SELECT 1 FROM tasks WHERE job_id = ${jobId})`;
    const data = JSON.stringify({ template: it.template.templateId, asset: it.assetId, status });
    const [rows] = await db.batch([
      db
        .insert(tasks)
        .values({
          jobId,
          jobNum: sql`(SELECT COALESCE(MAX(job_num), 0) + 1 FROM tasks)`,
          templateId: it.template.templateId,
          template: it.template.name,
          operationClass: it.template.operationClass,
          setup: it.template.setup,
          owner: it.owner,
          assetId: it.assetId,
          version: it.version,
          srcEntity: it.variantId,
          dstEntity: makesVariant(it.template.operationClass) ? newId() : null,
          affected: [it.assetId],
          status,
          priority: it.priority ?? 0,
          dedupeKey: it.dedupeKey ?? null,
          scheduleTime: now,
          mtime: now,
        })
        .onConflictDoNothing()
        .returning(),
      db.run(
        inlined`INSERT INTO task_logs (job_id, run, ts, level, line) SELECT ${jobId}, 0, ${now}, 'info', ${`Задача создана: «${it.template.name}», статус ${status}`} WHERE ${inserted}`,
      ),
      db.run(
        inlined`INSERT INTO events (event_id, ctime, user_id, kind, entity_type, entity_id, data) SELECT ${newId()}, ${now}, ${byUser}, 'task.create', 'task', ${jobId}, ${data} WHERE ${inserted}`,
      ),
    ]);
    if (rows[0]) made.push(rows[0]);
  }
  return made;
}

const conflict = (t: Pick<Task, "status">, what: string) =>
  new ApiError("conflict", `${what} недоступна: задача в статусе «${t.status}»`, [{ field: "status", message: t.status }]);

/**
 * A command (pause, resume, cancel, restart), checked against the transition table (./transitions.ts); 409 with
 * the current status when it does not apply.
 */
export async function commandTask(db: Db, env: Env, auth: AuthUser, jobId: string, command: TaskCommand) {
  const t = await taskFor(db, auth, jobId, "update");
  const rule = commandTable[command];
  if (!rule.from.includes(t.status)) throw conflict(t, `Команда «${command}»`);
  const now = nowSeconds();
  const reset = { workerInfo: null, heartbeatAt: null, progress: 0, progressInfo: "", mtime: now };
  // Queuing again also retires the current run, so a late callback of the old attempt is refused.
  const set: Partial<Task> & { run?: never } =
    command === "restart"
      ? {
          ...reset,
          status: rule.to,
          scheduleTime: now,
          startTime: null,
          stopTime: null,
          error: null,
          result: null,
          dstEntity: t.dstEntity ? newId() : null,
        }
      : command === "resume"
        ? { ...reset, status: rule.to, scheduleTime: now }
        : {
            ...reset,
            status: rule.to,
            progress: t.progress,
            progressInfo: t.progressInfo,
            stopTime: command === "cancel" ? now : t.stopTime,
          };
  const [changed] = await db.batch([
    db
      .update(tasks)
      .set({ ...set, ...(rule.to === "inqueue" ? { run: sql`${tasks.run} + 1` } : {}) })
      .where(and(eq(tasks.jobId, jobId), inArray(tasks.status, [...rule.from])))
      .returning({ id: tasks.jobId }),
    ...followUps(db, {
      kind: "task.status",
      userId: auth.userId,
      jobId,
      run: t.run,
      data: { command, from: t.status, to: rule.to },
      line: `Команда «${command}» (${auth.login}): ${t.status} → ${rule.to}`,
    }),
  ]);
  if (changed.length === 0) {
    // Lost a race with another command or the transcoder: report what it is now.
    const now2 = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.jobId, jobId)).get();
    throw conflict(now2 ?? t, `Команда «${command}»`);
  }
  if (command === "pause" || command === "cancel") await tellTranscoder(env, `/tasks/${jobId}`, { method: "DELETE" });
  if (rule.to === "inqueue") await env.JOBS.send({ type: "task-run", jobId });
  return getTask(db, auth, jobId);
}

export async function setPriority(db: Db, env: Env, auth: AuthUser, jobId: string, priority: number) {
  const t = await taskFor(db, auth, jobId, "update");
  if (finalStatuses.includes(t.status)) throw conflict(t, "Смена приоритета");
  await db.batch([
    db.update(tasks).set({ priority, mtime: nowSeconds() }).where(eq(tasks.jobId, jobId)),
    eventInsert(db, {
      kind: "task.priority",
      userId: auth.userId,
      entityType: "task",
      entityId: jobId,
      data: { from: t.priority, to: priority },
    }),
  ]);
  if (t.workerInfo) await tellTranscoder(env, `/tasks/${jobId}/priority`, { method: "POST", json: { priority } });
  return getTask(db, auth, jobId);
}

/** The variant a template reads by default: the version's master, else its original upload. */
export async function sourceVariant(db: Db, assetId: string, version?: number, variantId?: string) {
  const rows = await db
    .select()
    .from(variants)
    .where(and(eq(variants.assetId, assetId), version ? eq(variants.version, version) : undefined))
    .orderBy(desc(variants.version));
  if (variantId) return rows.find((r) => r.variantId === variantId) ?? null;
  const latest = rows.filter((r) => r.version === rows[0]?.version);
  return ["master", "initial", "untyped"].map((type) => latest.find((r) => r.variantType === type)).find(Boolean) ?? null;
}

/** Enqueue a template by hand (execute on the asset). */
export async function enqueueTask(
  db: Db,
  env: Env,
  auth: AuthUser,
  assetId: string,
  body: { template_id: string; version?: number; variant_id?: string; priority: number; hold: boolean },
) {
  await requireAssets(db, auth, "execute", [assetId]);
  const template = await loadTemplate(db, body.template_id);
  if (!template || template.disabled) throw new ApiError("not_found", "Шаблон задачи не найден или отключён");
  const src = await sourceVariant(db, assetId, body.version, body.variant_id);
  if (!src)
    throw new ApiError("bad_request", "У файла нет содержимого для обработки", [
      { field: body.variant_id ? "variant_id" : "version", message: "нет такого варианта" },
    ]);
  if (!appliesTo(template.operationClass, src.mimeType)) {
    throw new ApiError("bad_request", `Шаблон «${template.name}» не применим к типу ${src.mimeType}`, [
      { field: "template_id", message: "не подходит к типу файла" },
    ]);
  }
  const [task] = await createTasks(
    db,
    [{ template, assetId, version: src.version, variantId: src.variantId, owner: auth.userId, priority: body.priority, hold: body.hold }],
    auth.userId,
  );
  if (task.status === "inqueue") await env.JOBS.send({ type: "task-run", jobId: task.jobId });
  return getTask(db, auth, task.jobId);
}
