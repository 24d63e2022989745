import { eq, inArray } from "drizzle-orm";
import { assetClasses, assets, fieldTemplates, type AssetClass } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { clashOnUnique, idList } from "../lib/sql";
import type { AssetClassBody } from "../../shared/assets/schemas";

/** Asset classes (routes in ./classes.ts): admins change them, everyone reads them; each change writes its event. */

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

/** The unique index on the name refuses a second class of that name, even one written by a racing request. */
const nameTaken = (name: string) => () => new ApiError("conflict", `Класс «${name}» уже есть`);

export const listClasses = (db: Db) => db.select().from(assetClasses).orderBy(assetClasses.name);

export const classesByIds = (db: Db, ids: string[]) =>
  db
    .select()
    .from(assetClasses)
    .where(inArray(assetClasses.classId, idList(ids)));

export async function createClass(db: Db, userId: string, body: AssetClassBody): Promise<AssetClass> {
  await checkDefFields(db, body.def_fields);
  const now = nowSeconds();
  const row = { classId: newId(), name: body.name, defFields: body.def_fields ?? [], ctime: now, mtime: now };
  await clashOnUnique(
    () =>
      db.batch([
        db.insert(assetClasses).values(row),
        eventInsert(db, { kind: "asset-class.create", userId, entityType: "asset_class", entityId: row.classId, data: { name: row.name } }),
      ]),
    nameTaken(body.name),
  );
  return row;
}

export async function updateClass(db: Db, userId: string, id: string, body: Partial<AssetClassBody>): Promise<AssetClass> {
  await checkDefFields(db, body.def_fields);
  const current = await db.select().from(assetClasses).where(eq(assetClasses.classId, id)).get();
  if (!current) throw new ApiError("not_found", "Класс не найден");
  const next = { ...current, name: body.name ?? current.name, defFields: body.def_fields ?? current.defFields, mtime: nowSeconds() };
  await clashOnUnique(
    () =>
      db.batch([
        db.update(assetClasses).set(next).where(eq(assetClasses.classId, id)),
        eventInsert(db, { kind: "asset-class.update", userId, entityType: "asset_class", entityId: id, data: body }),
      ]),
    nameTaken(next.name),
  );
  return next;
}

/** Deletes a class (404 when there is none); its assets lose the class. */
export async function deleteClass(db: Db, userId: string, id: string): Promise<void> {
  const [deleted] = await db.batch([
    db.delete(assetClasses).where(eq(assetClasses.classId, id)).returning({ id: assetClasses.classId }),
    db.update(assets).set({ classId: null }).where(eq(assets.classId, id)),
    eventInsert(db, { kind: "asset-class.delete", userId, entityType: "asset_class", entityId: id }),
  ]);
  if (deleted.length === 0) throw new ApiError("not_found", "Класс не найден");
}
