import { and, eq, inArray, sql } from "drizzle-orm";
import { fieldTemplates, listRecords, users, versions } from "../../db/schema";
import { accessContext, permissionsOn, resolveObjects } from "../lib/access";
import type { AuthUser } from "../lib/env";
import type { Db } from "../lib/db";
import { invalidFields } from "../lib/validation";
import { idList } from "../lib/sql";
import { checkData, type Pending, type Problem, type Templates } from "./check-data";
import type { FieldSetups } from "../../shared/fields/schemas";

/** Validation of values that needs the database: templates, references, list records, version durations. */

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

/** The templates by id, with the sub-fields of structs (to any depth), in as few round trips as the nesting is deep. */
export async function loadTemplates(db: Db, ids: string[]): Promise<Templates> {
  const found: Templates = new Map();
  let wanted = [...new Set(ids)];
  for (let depth = 0; wanted.length && depth < 5; depth++) {
    const rows = await db
      .select()
      .from(fieldTemplates)
      .where(inArray(fieldTemplates.fieldDefId, idList(wanted)));
    for (const r of rows) found.set(r.fieldDefId, r);
    wanted = [...new Set(rows.filter((r) => r.fieldType === "struct").flatMap((r) => (r.setup as FieldSetups["struct"]).fields))].filter(
      (id) => !found.has(id),
    );
  }
  return found;
}

export interface Candidate {
  /** Prefix for the names of problems: "" for one value, "values.3." in a list. */
  at: string;
  defId: string;
  data: unknown;
}

/** Checks every candidate's field_data; throws one 400 naming every bad field. */
export async function checkValues(db: Db, auth: AuthUser, templates: Templates, candidates: Candidate[]) {
  const pending: Pending = { refs: [], listValues: [] };
  const problems: Problem[] = [];
  for (const c of candidates) {
    const t = templates.get(c.defId);
    if (!t) problems.push({ field: `${c.at}def_id`, message: "нет такого шаблона поля" });
    else problems.push(...checkData(t, c.data, `${c.at}field_data`, templates, pending));
  }
  if (problems.length) throw invalidFields(problems);
  problems.push(...(await checkReferences(db, auth, pending)));
  if (problems.length) throw invalidFields(problems);
}

/** Referenced assets and groups must exist and be readable by the caller (hidden ones look missing); users must exist. */
async function checkReferences(db: Db, auth: AuthUser, pending: Pending): Promise<Problem[]> {
  const problems: Problem[] = [];
  const objectIds = pending.refs.filter((r) => r.kind !== "user").map((r) => r.id);
  const userIds = [...new Set(pending.refs.filter((r) => r.kind === "user").map((r) => r.id))];
  const byList = groupBy(pending.listValues, (v) => v.listId);
  const [ctx, objects, userRows, recordRows] = await Promise.all([
    accessContext(db, auth),
    objectIds.length ? resolveObjects(db, objectIds) : new Map(),
    userIds.length
      ? db
          .select({ id: users.userId })
          .from(users)
          .where(inArray(users.userId, idList(userIds)))
      : [],
    Promise.all(
      [...byList].map(([listId, values]) =>
        db
          .select({ listId: listRecords.listId, recData: listRecords.recData })
          .from(listRecords)
          .where(and(eq(listRecords.listId, listId), inArray(listRecords.recData, idList([...new Set(values.map((v) => v.value))])))),
      ),
    ),
  ]);
  const usersFound = new Set(userRows.map((u) => u.id));
  for (const r of pending.refs) {
    if (r.kind === "user") {
      if (!usersFound.has(r.id)) problems.push({ field: r.field, message: "нет такого пользователя" });
      continue;
    }
    const obj = objects.get(r.id);
    if (!obj || obj.type !== r.kind || !permissionsOn(ctx, obj))
      problems.push({ field: r.field, message: r.kind === "asset" ? "нет такого ресурса" : "нет такой группы" });
  }
  const records = new Set(recordRows.flat().map((r) => `${r.listId}\n${r.recData}`));
  for (const v of pending.listValues) {
    if (!records.has(`${v.listId}\n${v.value}`)) problems.push({ field: v.field, message: `«${v.value}» нет в списке` });
  }
  return problems;
}

export interface Placement {
  at: string;
  entityId: string;
  entityType: "asset" | "group";
  assetVersion: number | null | undefined;
  pts: [number, number] | null | undefined;
}

/**
 * asset_version exists on the asset (groups have none), and pts ends within the version's duration
 * when it is known (the largest `duration` among its variants' technical properties; without a version,
 * the latest one's). Answers each value's version as it will be stored.
 */
export async function checkPlacements(db: Db, items: Placement[]): Promise<(number | null)[]> {
  const problems: Problem[] = [];
  const assetIds = [...new Set(items.filter((i) => i.entityType === "asset").map((i) => i.entityId))];
  const rows = assetIds.length
    ? await db
        .select({
          assetId: versions.assetId,
          version: versions.version,
          // Columns spelled out: drizzle renders ${versions.assetId} unqualified here, which the subquery would read as its own.
          duration: sql<number | null>`(SELECT max(CAST(json_extract(v.tech_props, '$.duration') AS REAL)) FROM variants v
            WHERE v.asset_id = versions.asset_id AND v.version = versions.version)`,
        })
        .from(versions)
        .where(inArray(versions.assetId, idList(assetIds)))
    : [];
  const byAsset = groupBy(rows, (r) => r.assetId);
  const stored = items.map((i) => {
    if (i.entityType !== "asset") {
      if (i.assetVersion != null) problems.push({ field: `${i.at}asset_version`, message: "версии бывают только у ресурсов" });
      return null;
    }
    const known = byAsset.get(i.entityId) ?? [];
    const version =
      i.assetVersion != null
        ? known.find((v) => v.version === i.assetVersion)
        : known.reduce<(typeof known)[number] | undefined>((a, b) => (!a || b.version > a.version ? b : a), undefined);
    if (i.assetVersion != null && !version) problems.push({ field: `${i.at}asset_version`, message: "у ресурса нет такой версии" });
    if (i.pts && version?.duration != null && i.pts[1] > version.duration)
      problems.push({ field: `${i.at}pts`, message: `конец позже длительности версии (${version.duration} с)` });
    return i.assetVersion ?? null;
  });
  if (problems.length) throw invalidFields(problems);
  return stored;
}
