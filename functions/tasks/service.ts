import { and, asc, desc, eq, gt, inArray, or, sql, type SQL } from "drizzle-orm";
import { assets, taskLogs, tasks, taskTemplates, users, type Task } from "../../db/schema";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { idList } from "../lib/sql";
import { taskFor, visibleTasks } from "./access";
import type { TaskOut } from "../../shared/tasks/schemas";
import { commandsFor } from "../../shared/tasks/transitions";

/** Reading tasks: lists (filtered in SQL by what the caller may read), one task, its result and log. */

export interface TaskFilter {
  status?: Task["status"][];
  owner?: string;
  template?: string;
  entity?: string;
}

const columns = {
  task: tasks,
  ownerName: users.userName,
  assetName: assets.name,
};

type Row = { task: Task; ownerName: string | null; assetName: string | null };

export const taskOut = ({ task: t, ownerName, assetName }: Row): TaskOut => ({
  job_id: t.jobId,
  job_num: t.jobNum,
  template_id: t.templateId,
  template: t.template,
  operation_class: t.operationClass,
  owner: t.owner,
  owner_name: ownerName,
  affected: t.affected,
  src_entity: t.srcEntity,
  dst_entity: t.dstEntity,
  asset_id: t.assetId,
  asset_name: assetName,
  version: t.version,
  worker_info: t.workerInfo,
  schedule_time: t.scheduleTime,
  start_time: t.startTime,
  stop_time: t.stopTime,
  progress: t.progress,
  progress_info: t.progressInfo,
  status: t.status,
  priority: t.priority,
  error: t.error,
});

async function where(db: Db, auth: AuthUser, f: TaskFilter): Promise<SQL> {
  const parts: (SQL | undefined)[] = [await visibleTasks(db, auth)];
  if (f.status?.length) parts.push(inArray(tasks.status, f.status));
  if (f.owner) parts.push(eq(tasks.owner, f.owner));
  if (f.template) parts.push(eq(tasks.templateId, f.template));
  if (f.entity) parts.push(or(eq(tasks.assetId, f.entity), eq(tasks.srcEntity, f.entity), eq(tasks.dstEntity, f.entity)));
  return and(...parts)!;
}

const joined = (db: Db) =>
  db.select(columns).from(tasks).leftJoin(users, eq(users.userId, tasks.owner)).leftJoin(assets, eq(assets.assetId, tasks.assetId));

/** Newest first; running and queued work is what people look for, so they lead within a page's order by number. */
export async function listTasks(db: Db, auth: AuthUser, f: TaskFilter, skip: number, take: number) {
  const rows = await joined(db)
    .where(await where(db, auth, f))
    .orderBy(desc(tasks.jobNum))
    .limit(take)
    .offset(skip);
  return rows.map(taskOut);
}

export async function countTasks(db: Db, auth: AuthUser, f: TaskFilter) {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(tasks)
    .where(await where(db, auth, f))
    .get();
  return { count: Number(row?.n ?? 0) };
}

/** Template names for the filter, with how many of the caller's visible tasks use each. */
export async function taskNames(db: Db, auth: AuthUser) {
  return db
    .select({ template_id: tasks.templateId, name: taskTemplates.name, count: sql<number>`count(*)` })
    .from(tasks)
    .innerJoin(taskTemplates, eq(taskTemplates.templateId, tasks.templateId))
    .where(await visibleTasks(db, auth))
    .groupBy(tasks.templateId, taskTemplates.name)
    .orderBy(asc(taskTemplates.name));
}

/** Status of many tasks at once (the /jobs screen polls this); ids the caller cannot read are left out. */
export async function taskStatuses(db: Db, auth: AuthUser, ids: string[]) {
  const rows = await db
    .select({
      job_id: tasks.jobId,
      status: tasks.status,
      progress: tasks.progress,
      progress_info: tasks.progressInfo,
      start_time: tasks.startTime,
      stop_time: tasks.stopTime,
      priority: tasks.priority,
      error: tasks.error,
    })
    .from(tasks)
    .where(and(inArray(tasks.jobId, idList(ids)), await visibleTasks(db, auth)));
  return rows.map((r) => ({ ...r, commands: commandsFor(r.status) }));
}

export async function getTask(db: Db, auth: AuthUser, jobId: string) {
  await taskFor(db, auth, jobId);
  const row = await joined(db).where(eq(tasks.jobId, jobId)).get();
  return taskOut(row!);
}

export async function taskResult(db: Db, auth: AuthUser, jobId: string) {
  const t = await taskFor(db, auth, jobId);
  return { job_id: t.jobId, status: t.status, result: t.result ?? null, error: t.error, dst_entity: t.dstEntity };
}

export async function taskLog(db: Db, auth: AuthUser, jobId: string, after: number, take: number) {
  await taskFor(db, auth, jobId);
  return db
    .select({ seq: taskLogs.seq, ts: taskLogs.ts, level: taskLogs.level, line: taskLogs.line, run: taskLogs.run })
    .from(taskLogs)
    .where(and(eq(taskLogs.jobId, jobId), gt(taskLogs.seq, after)))
    .orderBy(asc(taskLogs.seq))
    .limit(take);
}
