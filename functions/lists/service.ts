import type { z } from "@hono/zod-openapi";
import { and, asc, eq, sql } from "drizzle-orm";
import { fieldTemplates, fieldValues, listRecords, lists } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAdmin } from "../lib/auth";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { clashOnUnique } from "../lib/sql";
import type { list, listRecord } from "../../shared/lists/schemas";

/** Lists (the vocabularies text fields pick from): everyone reads them, admins change them. */

type List = z.infer<typeof list>;
type ListRecord = z.infer<typeof listRecord>;

const listTaken = (name: string) => () =>
  new ApiError("conflict", `Список «${name}» уже есть`, [{ field: "list_name", message: "уже есть" }]);
const recordTaken = (text: string) => () =>
  new ApiError("conflict", `«${text}» уже есть в списке`, [{ field: "rec_data", message: "уже есть в списке" }]);

async function listById(db: Db, id: string) {
  const row = await db.select().from(lists).where(eq(lists.listId, id)).get();
  if (!row) throw new ApiError("not_found", "Список не найден");
  return row;
}

async function recordById(db: Db, listId: string, recId: string) {
  const row = await db
    .select()
    .from(listRecords)
    .where(and(eq(listRecords.listId, listId), eq(listRecords.recId, recId)))
    .get();
  if (!row) throw new ApiError("not_found", "Запись списка не найдена");
  return row;
}

/** Text templates that pick from the list. */
const templatesOfList = (listId: string) =>
  sql`SELECT field_def_id FROM ${fieldTemplates} WHERE field_type = 'text' AND json_extract(field_setup, '$.list_id') = ${listId}`;

const event = (db: Db, auth: AuthUser, kind: string, listId: string, data?: Record<string, unknown>) =>
  eventInsert(db, { kind, userId: auth.userId, entityType: "list", entityId: listId, data });

export async function allLists(db: Db): Promise<List[]> {
  const rows = await db.select().from(lists).orderBy(asc(lists.name));
  return rows.map((l) => ({ list_id: l.listId, list_name: l.name }));
}

export async function createList(db: Db, auth: AuthUser, name: string): Promise<string> {
  requireAdmin(auth);
  const now = nowSeconds();
  const listId = newId();
  await clashOnUnique(
    () =>
      db.batch([
        db.insert(lists).values({ listId, name, ctime: now, mtime: now }),
        event(db, auth, "list.create", listId, { list_name: name }),
      ]),
    listTaken(name),
  );
  return listId;
}

export async function renameList(db: Db, auth: AuthUser, listId: string, name: string): Promise<List> {
  requireAdmin(auth);
  await listById(db, listId);
  await clashOnUnique(
    () =>
      db.batch([
        db.update(lists).set({ name, mtime: nowSeconds() }).where(eq(lists.listId, listId)),
        event(db, auth, "list.update", listId, { list_name: name }),
      ]),
    listTaken(name),
  );
  return { list_id: listId, list_name: name };
}

/** A list and its records go together; while a field template picks from it, 409. */
export async function deleteList(db: Db, auth: AuthUser, listId: string): Promise<void> {
  requireAdmin(auth);
  const current = await listById(db, listId);
  const users = await db.all<{ field_def_id: string }>(templatesOfList(listId));
  if (users.length)
    throw new ApiError("conflict", `Из списка «${current.name}» выбирают поля (${users.length}): сначала смените их настройку`);
  await db.batch([
    db.delete(listRecords).where(eq(listRecords.listId, listId)),
    db.delete(lists).where(eq(lists.listId, listId)),
    event(db, auth, "list.delete", listId, { list_name: current.name }),
  ]);
}

/** The records in the order they were added. */
export async function recordsOf(db: Db, listId: string): Promise<ListRecord[]> {
  await listById(db, listId);
  const rows = await db.select().from(listRecords).where(eq(listRecords.listId, listId)).orderBy(asc(listRecords.ctime), asc(sql`rowid`));
  return rows.map((r) => ({ list_id: r.listId, rec_id: r.recId, rec_data: r.recData }));
}

export async function addRecord(db: Db, auth: AuthUser, listId: string, text: string): Promise<string> {
  requireAdmin(auth);
  await listById(db, listId);
  const recId = newId();
  await clashOnUnique(
    () =>
      db.batch([
        db.insert(listRecords).values({ recId, listId, recData: text, ctime: nowSeconds() }),
        event(db, auth, "list.record-create", listId, { rec_id: recId, rec_data: text }),
      ]),
    recordTaken(text),
  );
  return recId;
}

/**
 * A value from a list holds the record's text (docs/decisions/031-custom-fields.md), so the single values
 * holding the old text follow the change in the same batch.
 */
export async function changeRecord(db: Db, auth: AuthUser, listId: string, recId: string, text: string): Promise<ListRecord> {
  requireAdmin(auth);
  const current = await recordById(db, listId, recId);
  await clashOnUnique(
    () =>
      db.batch([
        db.update(listRecords).set({ recData: text }).where(eq(listRecords.recId, recId)),
        db
          .update(fieldValues)
          .set({ data: text, valueText: text, mtime: nowSeconds() })
          .where(sql`${fieldValues.defId} IN (${templatesOfList(listId)}) AND ${fieldValues.valueText} = ${current.recData}`),
        event(db, auth, "list.record-update", listId, { rec_id: recId, rec_data: text, was: current.recData }),
      ]),
    recordTaken(text),
  );
  return { list_id: listId, rec_id: recId, rec_data: text };
}

/** Values already holding the record's text keep it. */
export async function deleteRecord(db: Db, auth: AuthUser, listId: string, recId: string): Promise<void> {
  requireAdmin(auth);
  const current = await recordById(db, listId, recId);
  await db.batch([
    db.delete(listRecords).where(eq(listRecords.recId, recId)),
    event(db, auth, "list.record-delete", listId, { rec_id: recId, rec_data: current.recData }),
  ]);
}
