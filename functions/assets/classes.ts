import { createRoute, z } from "@hono/zod-openapi";
import { eq, inArray } from "drizzle-orm";
import { assetClasses, assets, fieldTemplates, type AssetClass } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAdmin } from "../lib/auth";
import { getDb, type Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { createApp, errorResponses, jsonBody, jsonContent } from "../lib/openapi";
import { idList } from "../lib/sql";
import { assetClass, assetClassBody, idParam, idsBody, ok } from "./schemas";

/** Asset classes: /api/asset/class (admins change them; everyone may read them). */
const app = createApp();
const tags = ["asset classes"];
const errors = {
  ...errorResponses,
  403: { description: "Admins only", content: errorResponses[400].content },
  404: { description: "Not found", content: errorResponses[400].content },
  409: { description: "Name taken", content: errorResponses[400].content },
};
const out = (c: AssetClass) => ({ id: c.classId, name: c.name, def_fields: c.defFields });
/** def_fields must name existing field templates (the form of the class is built from them). */
async function checkDefFields(db: Db, ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await db
    .select({ id: fieldTemplates.fieldDefId })
    .from(fieldTemplates)
    .where(inArray(fieldTemplates.fieldDefId, idList(ids)));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) {
    const message = `нет таких шаблонов полей: ${missing.join(", ")}`;
    throw new ApiError("validation", `Неверные данные: «def_fields»: ${message}`, [{ field: "def_fields", message }]);
  }
}
const nameTaken = (err: unknown) => /UNIQUE/i.test(String((err as Error)?.message) + String((err as { cause?: Error })?.cause?.message));

app.openapi(
  createRoute({
    method: "get",
    path: "/class",
    tags,
    summary: "All asset classes",
    responses: { 200: jsonContent(z.array(assetClass)), ...errors },
  }),
  async (c) => c.json((await getDb(c.env).select().from(assetClasses).orderBy(assetClasses.name)).map(out), 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/class",
    tags,
    summary: "Create an asset class",
    request: { body: jsonBody(assetClassBody) },
    responses: { 200: jsonContent(assetClass), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const body = c.req.valid("json");
    await checkDefFields(db, body.def_fields);
    const now = nowSeconds();
    const row = { classId: newId(), name: body.name, defFields: body.def_fields ?? [], ctime: now, mtime: now };
    try {
      await db.batch([
        db.insert(assetClasses).values(row),
        eventInsert(db, {
          kind: "asset-class.create",
          userId: c.get("auth").userId,
          entityType: "asset_class",
          entityId: row.classId,
          data: { name: row.name },
        }),
      ]);
    } catch (err) {
      if (nameTaken(err)) throw new ApiError("conflict", `Класс «${body.name}» уже есть`);
      throw err;
    }
    return c.json(out(row), 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/class/{id}",
    tags,
    summary: "Change an asset class",
    request: { params: idParam, body: jsonBody(assetClassBody.partial()) },
    responses: { 200: jsonContent(assetClass), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    await checkDefFields(db, body.def_fields);
    const current = await db.select().from(assetClasses).where(eq(assetClasses.classId, id)).get();
    if (!current) throw new ApiError("not_found", "Класс не найден");
    const next = { ...current, name: body.name ?? current.name, defFields: body.def_fields ?? current.defFields, mtime: nowSeconds() };
    try {
      await db.batch([
        db.update(assetClasses).set(next).where(eq(assetClasses.classId, id)),
        eventInsert(db, { kind: "asset-class.update", userId: c.get("auth").userId, entityType: "asset_class", entityId: id, data: body }),
      ]);
    } catch (err) {
      if (nameTaken(err)) throw new ApiError("conflict", `Класс «${next.name}» уже есть`);
      throw err;
    }
    return c.json(out(next), 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/class/{id}",
    tags,
    summary: "Delete an asset class (its assets lose the class)",
    request: { params: idParam },
    responses: { 200: jsonContent(ok), ...errors },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const db = getDb(c.env);
    const { id } = c.req.valid("param");
    const [deleted] = await db.batch([
      db.delete(assetClasses).where(eq(assetClasses.classId, id)).returning({ id: assetClasses.classId }),
      db.update(assets).set({ classId: null }).where(eq(assets.classId, id)),
      eventInsert(db, { kind: "asset-class.delete", userId: c.get("auth").userId, entityType: "asset_class", entityId: id }),
    ]);
    if (deleted.length === 0) throw new ApiError("not_found", "Класс не найден");
    return c.json({ ok: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/class-by-ids",
    tags,
    summary: "Asset classes by id",
    request: { body: jsonBody(idsBody) },
    responses: { 200: jsonContent(z.array(assetClass)), ...errors },
  }),
  async (c) => {
    const rows = await getDb(c.env)
      .select()
      .from(assetClasses)
      .where(inArray(assetClasses.classId, idList(c.req.valid("json").ids)));
    return c.json(rows.map(out), 200);
  },
);

export default app;
