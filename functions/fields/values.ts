import { and, asc, eq, gte, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { events, fieldValues, type FieldValue } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { requireAccess } from "../lib/access";
import { batchAll } from "../lib/batch";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert, eventRow } from "../lib/events";
import { newId } from "../lib/ids";
import { idList, insertRows } from "../lib/sql";
import { indexedValue } from "./check-data";
import type { forEntityQuery, ValueBody } from "../../shared/fields/schemas";
import { checkPlacements, checkValues, loadTemplates } from "./validate";
import type { z } from "@hono/zod-openapi";

/** Entity field values: reading needs read on the entity, writing needs update (docs/decisions/031-custom-fields.md). */

export const valueOut = (v: FieldValue) => ({
  field_id: v.fieldId,
  entity_id: v.entityId,
  entity_type: v.entityType as "asset" | "group",
  asset_version: v.assetVersion,
  pts: v.ptsStart === null || v.ptsEnd === null ? null : ([v.ptsStart, v.ptsEnd] as [number, number]),
  field_data: v.data,
  def_id: v.defId,
});

/** Update on every entity, asked per entity type so an asset id sent as a group is "not found". */
async function requireEntities(
  db: Db,
  auth: AuthUser,
  permission: "read" | "update",
  items: { entity_id: string; entity_type: "asset" | "group" }[],
) {
  for (const type of ["asset", "group"] as const) {
    const ids = [...new Set(items.filter((i) => i.entity_type === type).map((i) => i.entity_id))];
    if (ids.length) await requireAccess(db, auth, permission, ids, { types: [type] });
  }
}

export async function valuesForEntity(db: Db, auth: AuthUser, id: string, q: z.infer<typeof forEntityQuery>) {
  const where: (SQL | undefined)[] = [eq(fieldValues.entityId, id)];
  if (q.entity_type) where.push(eq(fieldValues.entityType, q.entity_type));
  // A version narrows the time-coded values to it; values of the asset as a whole (no version) stay.
  if (q.version !== undefined) where.push(or(eq(fieldValues.assetVersion, q.version), isNull(fieldValues.assetVersion)));
  if (q.defs.length) where.push(inArray(fieldValues.defId, idList(q.defs)));
  // Overlap with [pts_from, pts_to]: only time-coded values take part in a range query.
  if (q.pts_to !== undefined) where.push(lte(fieldValues.ptsStart, q.pts_to));
  if (q.pts_from !== undefined) where.push(gte(fieldValues.ptsEnd, q.pts_from));
  // The values are read while the access check runs (one wait instead of two); a refusal throws before any is returned.
  const [, rows] = await Promise.all([
    requireAccess(db, auth, "read", [id], q.entity_type ? { types: [q.entity_type] } : {}),
    db
      .select()
      .from(fieldValues)
      .where(and(...where))
      .orderBy(asc(fieldValues.ptsStart), asc(fieldValues.ctime), asc(fieldValues.fieldId)),
  ]);
  return rows.map(valueOut);
}

/** Literal INSERTs stay well under D1's statement size; a row bigger than this goes alone with bound values. */
const CHUNK_BYTES = 40_000;

function insertsOf(db: Db, table: typeof fieldValues | typeof events, rows: Record<string, unknown>[]): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [];
  let chunk: Record<string, unknown>[] = [];
  let size = 0;
  const flush = () => {
    if (chunk.length) out.push(db.run(insertRows(table, chunk)));
    chunk = [];
    size = 0;
  };
  for (const row of rows) {
    const bytes = JSON.stringify(row).length;
    if (bytes > CHUNK_BYTES / 4) {
      out.push(db.insert(table).values(row as never));
      continue;
    }
    if (size + bytes > CHUNK_BYTES) flush();
    chunk.push(row);
    size += bytes;
  }
  flush();
  return out;
}

/**
 * Creates values (one or up to 1,000) in one batch: every value is checked first, then all are written or none.
 * `replace` makes it a "set": the entities' values of the same fields without a time code go in the same batch.
 */
export async function createValues(db: Db, auth: AuthUser, items: ValueBody[], listed: boolean, replace = false): Promise<string[]> {
  const at = (i: number) => (listed ? `values.${i}.` : "");
  await requireEntities(db, auth, "update", items);
  const templates = await loadTemplates(
    db,
    items.map((i) => i.def_id),
  );
  await checkValues(
    db,
    auth,
    templates,
    items.map((i, n) => ({ at: at(n), defId: i.def_id, data: i.field_data })),
  );
  const versions = await checkPlacements(
    db,
    items.map((i, n) => ({ at: at(n), entityId: i.entity_id, entityType: i.entity_type, assetVersion: i.asset_version, pts: i.pts })),
  );
  const now = nowSeconds();
  const rows = items.map((i, n) => ({
    fieldId: newId(),
    entityId: i.entity_id,
    entityType: i.entity_type,
    assetVersion: versions[n],
    ptsStart: i.pts?.[0] ?? null,
    ptsEnd: i.pts?.[1] ?? null,
    data: i.field_data,
    defId: i.def_id,
    ...indexedValue(templates.get(i.def_id)!, i.field_data),
    userId: auth.userId,
    ctime: now,
    mtime: now,
  }));
  const eventRows = rows.map((r) =>
    eventRow({
      kind: "field.create",
      userId: auth.userId,
      entityType: r.entityType,
      entityId: r.entityId,
      data: { field_id: r.fieldId, def_id: r.defId },
    }),
  );
  const replaced = replace ? await replacedValues(db, items) : [];
  const removals = replaced.length
    ? [
        db.delete(fieldValues).where(sql`${fieldValues.fieldId} IN ${idList(replaced.map((r) => r.fieldId))}`),
        ...insertsOf(
          db,
          events,
          replaced.map((r) =>
            eventRow({
              kind: "field.delete",
              userId: auth.userId,
              entityType: r.entityType,
              entityId: r.entityId,
              data: { field_id: r.fieldId, def_id: r.defId },
            }),
          ),
        ),
      ]
    : [];
  await batchAll(db, [...removals, ...insertsOf(db, fieldValues, rows), ...insertsOf(db, events, eventRows)]);
  return rows.map((r) => r.fieldId);
}

/** The whole-entity values (no time code) a "set" of these items replaces: same entity, same field. */
async function replacedValues(db: Db, items: ValueBody[]) {
  const pairs = [...new Set(items.filter((i) => !i.pts).map((i) => `${i.entity_id}\u0000${i.def_id}`))].map((p) => p.split("\u0000"));
  if (!pairs.length) return [];
  const entityIds = [...new Set(pairs.map(([e]) => e))];
  const defIds = [...new Set(pairs.map(([, d]) => d))];
  const wanted = new Set(pairs.map(([e, d]) => `${e}\u0000${d}`));
  const rows = await db
    .select({ fieldId: fieldValues.fieldId, entityId: fieldValues.entityId, entityType: fieldValues.entityType, defId: fieldValues.defId })
    .from(fieldValues)
    .where(
      and(
        sql`${fieldValues.entityId} IN ${idList(entityIds)}`,
        sql`${fieldValues.defId} IN ${idList(defIds)}`,
        isNull(fieldValues.ptsStart),
      ),
    );
  return rows.filter((r) => wanted.has(`${r.entityId}\u0000${r.defId}`));
}

/** A value and its entity, or not_found when either is missing or the caller may not read the entity. */
async function valueFor(db: Db, auth: AuthUser, id: string, permission: "read" | "update") {
  const row = await db.select().from(fieldValues).where(eq(fieldValues.fieldId, id)).get();
  if (!row) throw new ApiError("not_found", "Значение поля не найдено");
  await requireAccess(db, auth, permission, [row.entityId], {
    types: [row.entityType as "asset" | "group"],
    notFound: "Значение поля не найдено",
  });
  return row;
}

export async function changeValue(db: Db, auth: AuthUser, id: string, patch: { field_data?: unknown; pts?: [number, number] | null }) {
  const row = await valueFor(db, auth, id, "update");
  const data = patch.field_data === undefined ? row.data : patch.field_data;
  const templates = await loadTemplates(db, [row.defId]);
  if (patch.field_data !== undefined) await checkValues(db, auth, templates, [{ at: "", defId: row.defId, data }]);
  if (patch.pts !== undefined) {
    const entityType = row.entityType as "asset" | "group";
    await checkPlacements(db, [{ at: "", entityId: row.entityId, entityType, assetVersion: row.assetVersion, pts: patch.pts }]);
  }
  const template = templates.get(row.defId);
  const next = {
    ...(patch.field_data !== undefined ? { data, ...(template ? indexedValue(template, data) : {}) } : {}),
    ...(patch.pts !== undefined ? { ptsStart: patch.pts?.[0] ?? null, ptsEnd: patch.pts?.[1] ?? null } : {}),
    mtime: nowSeconds(),
  };
  await db.batch([
    db.update(fieldValues).set(next).where(eq(fieldValues.fieldId, id)),
    eventInsert(db, {
      kind: "field.update",
      userId: auth.userId,
      entityType: row.entityType,
      entityId: row.entityId,
      data: { field_id: id, def_id: row.defId },
    }),
  ]);
  return valueOut({ ...row, ...next });
}

export async function deleteValue(db: Db, auth: AuthUser, id: string) {
  const row = await valueFor(db, auth, id, "update");
  await db.batch([
    db.delete(fieldValues).where(eq(fieldValues.fieldId, id)),
    eventInsert(db, {
      kind: "field.delete",
      userId: auth.userId,
      entityType: row.entityType,
      entityId: row.entityId,
      data: { field_id: id, def_id: row.defId },
    }),
  ]);
}

/** Values of a template, for the 409 of a template delete. */
export const valuesOfTemplate = (db: Db, defId: string) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(fieldValues)
    .where(eq(fieldValues.defId, defId))
    .get()
    .then((r) => r?.n ?? 0);
