import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, sql } from "drizzle-orm";
import { fieldTemplates, fieldValues, listRecords, lists } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAdmin } from "../lib/auth";
import { getDb, type Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { list, listBody, listIdOut, listParam, listRecord, ok, recIdOut, recordBody, recordParam } from "./schemas";

/** /api/lists: everyone reads the vocabularies text fields pick from; admins change them. */
const app = createApp();
const tags = ["lists"];
const errorOf = (description: string) => ({ description, content: errorResponses[400].content });
const errors = { ...errorResponses, 403: errorOf("Admins only"), 404: errorOf("Not found"), 409: errorOf("Name taken or in use") };
const isUnique = (err: unknown) => /UNIQUE/i.test(String((err as Error)?.message) + String((err as { cause?: Error })?.cause?.message));

/** Runs a write whose unique index may refuse it, answering 409 with `message`. */
async function unique<T>(write: Promise<T>, message: string): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUnique(err)) throw new ApiError("conflict", message);
    throw err;
  }
}

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

const event = (db: Db, userId: string, kind: string, listId: string, data?: Record<string, unknown>) =>
  eventInsert(db, { kind, userId, entityType: "list", entityId: listId, data });

app.openapi(
  createRoute({ method: "get", path: "/", tags, summary: "All lists", responses: { 200: jsonContent(z.array(list)), ...errors } }),
  async (c) => {
    const rows = await getDb(c.env).select().from(lists).orderBy(asc(lists.name));
    return c.json(
      rows.map((l) => ({ list_id: l.listId, list_name: l.name })),
      200,
    );
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/",
    tags,
    summary: "Create a list (admins)",
    request: { body: jsonBody(listBody) },
    responses: { 200: jsonContent(listIdOut), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { list_name } = c.req.valid("json");
    const now = nowSeconds();
    const listId = newId();
    await unique(
      db.batch([
        db.insert(lists).values({ listId, name: list_name, ctime: now, mtime: now }),
        event(db, c.get("auth").userId, "list.create", listId, { list_name }),
      ]),
      `Список «${list_name}» уже есть`,
    );
    return c.json({ list_id: listId }, 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/{list_id}",
    tags,
    summary: "Rename a list (admins)",
    request: { params: listParam, body: jsonBody(listBody) },
    responses: { 200: jsonContent(list), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { list_id } = c.req.valid("param");
    const { list_name } = c.req.valid("json");
    await listById(db, list_id);
    await unique(
      db.batch([
        db.update(lists).set({ name: list_name, mtime: nowSeconds() }).where(eq(lists.listId, list_id)),
        event(db, c.get("auth").userId, "list.update", list_id, { list_name }),
      ]),
      `Список «${list_name}» уже есть`,
    );
    return c.json({ list_id, list_name }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/{list_id}",
    tags,
    summary: "Delete a list and its records (admins); 409 while a field template picks from it",
    request: { params: listParam },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { list_id } = c.req.valid("param");
    const current = await listById(db, list_id);
    const users = await db.all<{ field_def_id: string }>(templatesOfList(list_id));
    if (users.length)
      throw new ApiError("conflict", `Из списка «${current.name}» выбирают поля (${users.length}): сначала смените их настройку`);
    await db.batch([
      db.delete(listRecords).where(eq(listRecords.listId, list_id)),
      db.delete(lists).where(eq(lists.listId, list_id)),
      event(db, c.get("auth").userId, "list.delete", list_id, { list_name: current.name }),
    ]);
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/records/{list_id}",
    tags,
    summary: "A list's records, in the order they were added",
    request: { params: listParam },
    responses: { 200: jsonContent(z.array(listRecord)), ...errors },
  }),
  async (c) => {
    const db = getDb(c.env);
    const { list_id } = c.req.valid("param");
    await listById(db, list_id);
    const rows = await db
      .select()
      .from(listRecords)
      .where(eq(listRecords.listId, list_id))
      .orderBy(asc(listRecords.ctime), asc(sql`rowid`));
    return c.json(
      rows.map((r) => ({ list_id: r.listId, rec_id: r.recId, rec_data: r.recData })),
      200,
    );
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/records/{list_id}",
    tags,
    summary: "Add a record (admins)",
    request: { params: listParam, body: jsonBody(recordBody) },
    responses: { 200: jsonContent(recIdOut), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { list_id } = c.req.valid("param");
    const { rec_data } = c.req.valid("json");
    await listById(db, list_id);
    const recId = newId();
    await unique(
      db.batch([
        db.insert(listRecords).values({ recId, listId: list_id, recData: rec_data, ctime: nowSeconds() }),
        event(db, c.get("auth").userId, "list.record-create", list_id, { rec_id: recId, rec_data }),
      ]),
      `«${rec_data}» уже есть в списке`,
    );
    return c.json({ rec_id: recId }, 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/records/{list_id}/{rec_id}",
    tags,
    summary: "Change a record (admins); single values holding its old text follow it",
    request: { params: recordParam, body: jsonBody(recordBody) },
    responses: { 200: jsonContent(listRecord), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { list_id, rec_id } = c.req.valid("param");
    const { rec_data } = c.req.valid("json");
    const current = await recordById(db, list_id, rec_id);
    await unique(
      db.batch([
        db.update(listRecords).set({ recData: rec_data }).where(eq(listRecords.recId, rec_id)),
        db
          .update(fieldValues)
          .set({ data: rec_data, valueText: rec_data, mtime: nowSeconds() })
          .where(sql`${fieldValues.defId} IN (${templatesOfList(list_id)}) AND ${fieldValues.valueText} = ${current.recData}`),
        event(db, c.get("auth").userId, "list.record-update", list_id, { rec_id, rec_data, was: current.recData }),
      ]),
      `«${rec_data}» уже есть в списке`,
    );
    return c.json({ list_id, rec_id, rec_data }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/records/{list_id}/{rec_id}",
    tags,
    summary: "Delete a record (admins); values already holding its text keep it",
    request: { params: recordParam },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { list_id, rec_id } = c.req.valid("param");
    const current = await recordById(db, list_id, rec_id);
    await db.batch([
      db.delete(listRecords).where(eq(listRecords.recId, rec_id)),
      event(db, c.get("auth").userId, "list.record-delete", list_id, { rec_id, rec_data: current.recData }),
    ]);
    return c.json({ ok: true as const }, 200);
  },
);

export default app;
