import { and, asc, eq } from "drizzle-orm";
import { assets, taskTemplates, type OperationClass, type TaskTemplate } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAssets } from "../assets/guard";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert, insertWithEvent } from "../lib/events";
import { newId } from "../lib/ids";
import { validationError } from "../lib/validation";
import { ensureDefaultTemplates } from "./defaults";
import { appliesTo, setupSchemas } from "../../shared/tasks/schemas";

/** Task templates are data (decision 011): admins add proxy profiles or watermarks here, no code. */

export const templateOut = (t: TaskTemplate) => ({
  id: t.templateId,
  name: t.name,
  operation_class: t.operationClass,
  setup: t.setup,
  owner: t.owner,
  disabled: t.disabled,
});

export async function loadTemplate(db: Db, id: string) {
  await ensureDefaultTemplates(db);
  return (await db.select().from(taskTemplates).where(eq(taskTemplates.templateId, id)).get()) ?? null;
}

/** Templates of a class ("all" for every class); disabled ones only for admins. */
export async function listTemplates(db: Db, auth: AuthUser, cls: OperationClass | "all") {
  await ensureDefaultTemplates(db);
  const rows = await db
    .select()
    .from(taskTemplates)
    .where(
      and(cls === "all" ? undefined : eq(taskTemplates.operationClass, cls), auth.isAdmin ? undefined : eq(taskTemplates.disabled, false)),
    )
    .orderBy(asc(taskTemplates.operationClass), asc(taskTemplates.name));
  return rows.map(templateOut);
}

/** Enabled templates; with an asset, those that apply to its type (execute on it decides whether it can be enqueued). */
export async function availableTasks(db: Db, auth: AuthUser, assetId?: string, classes?: OperationClass[]) {
  await ensureDefaultTemplates(db);
  let mime: string | null = null;
  if (assetId) {
    await requireAssets(db, auth, "read", [assetId]);
    mime = (await db.select({ m: assets.mimetype }).from(assets).where(eq(assets.assetId, assetId)).get())?.m ?? null;
  }
  const rows = await db.select().from(taskTemplates).where(eq(taskTemplates.disabled, false)).orderBy(asc(taskTemplates.name));
  return rows
    .filter((t) => (!classes || classes.includes(t.operationClass)) && (mime === null || appliesTo(t.operationClass, mime)))
    .map(templateOut);
}

function parseSetup(cls: OperationClass, setup: unknown) {
  const parsed = setupSchemas[cls].safeParse(setup);
  if (!parsed.success) {
    const err = validationError(parsed.error);
    throw new ApiError(
      "validation",
      err.message,
      err.details?.map((d) => ({ ...d, field: `setup.${d.field}` })),
    );
  }
  return parsed.data as Record<string, unknown>;
}

export async function createTemplate(
  db: Db,
  auth: AuthUser,
  body: { name: string; operation_class: OperationClass; setup: unknown; disabled: boolean },
) {
  const now = nowSeconds();
  const row: TaskTemplate = {
    templateId: newId(),
    name: body.name,
    operationClass: body.operation_class,
    setup: parseSetup(body.operation_class, body.setup),
    owner: auth.userId,
    disabled: body.disabled,
    ctime: now,
    mtime: now,
  };
  await insertWithEvent(db, taskTemplates, row, {
    kind: "task-template.create",
    userId: auth.userId,
    entityType: "task_template",
    entityId: row.templateId,
    data: { name: row.name, class: row.operationClass },
  });
  return templateOut(row);
}

/** A new setup replaces the old one whole (validated for the class); queued tasks keep the setup they were made with. */
export async function patchTemplate(db: Db, auth: AuthUser, id: string, body: { name?: string; disabled?: boolean; setup?: unknown }) {
  const t = await loadTemplate(db, id);
  if (!t) throw new ApiError("not_found", "Шаблон задачи не найден");
  const next: TaskTemplate = {
    ...t,
    name: body.name ?? t.name,
    disabled: body.disabled ?? t.disabled,
    mtime: nowSeconds(),
    setup: body.setup === undefined ? t.setup : parseSetup(t.operationClass, body.setup),
  };
  await db.batch([
    db
      .update(taskTemplates)
      .set({ name: next.name, disabled: next.disabled, setup: next.setup, mtime: next.mtime })
      .where(eq(taskTemplates.templateId, id)),
    eventInsert(db, {
      kind: "task-template.update",
      userId: auth.userId,
      entityType: "task_template",
      entityId: id,
      data: { keys: Object.keys(body) },
    }),
  ]);
  return templateOut(next);
}
