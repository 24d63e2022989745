import { eq, type SQL } from "drizzle-orm";
import { tasks, type Task } from "../../db/schema";
import { accessContext } from "../lib/access";
import { assetFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { requireAssets } from "../assets/guard";

/**
 * Who sees and commands a task: the permission engine on the task's asset (decision 011). read on
 * the asset shows the task, update lets the caller command it and change its priority, execute lets
 * it enqueue a template by hand. A task on an asset the caller cannot read answers 404 like a
 * missing one. The engine also decides an asset in no group (its owner's: assetPermissions).
 */
export const taskNotFound = () => new ApiError("not_found", "Задача не найдена");

/** WHERE for task lists: the tasks of assets the caller may read, decided in SQL. */
export async function visibleTasks(db: Db, auth: AuthUser): Promise<SQL> {
  return assetFilter(await accessContext(db, auth), tasks.assetId);
}

/** The task after a check of `permission` on its asset; not_found when missing or unreadable. */
export async function taskFor(db: Db, auth: AuthUser, jobId: string, permission: "read" | "update" = "read"): Promise<Task> {
  const task = await db.select().from(tasks).where(eq(tasks.jobId, jobId)).get();
  if (!task) throw taskNotFound();
  try {
    await requireAssets(db, auth, permission, [task.assetId]);
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") throw taskNotFound();
    throw err;
  }
  return task;
}
