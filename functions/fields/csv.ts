import { sql } from "drizzle-orm";
import { fieldTemplates, type FieldTemplate } from "../../db/schema";
import { accessContext, requireAccess } from "../lib/access";
import { assetFilter } from "../lib/access-sql";
import { csvText, parseCsv } from "../lib/csv";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { idList } from "../lib/sql";
import type { ValueBody } from "../../shared/fields/schemas";
import { checkValues, loadTemplates } from "./validate";
import { createValues } from "./values";

/**
 * A group's field values as CSV and back (docs/decisions/039-bulk-metadata-and-csv.md). One row per asset placed
 * directly in the group: asset_id, name, then one column per field template (by name) that has whole-asset values
 * there. Time-coded values stay out (they belong to the timeline). Several values of a field are joined by "; ".
 */

const SEPARATOR = "; ";
const MAX_ROWS = 10_000;

interface AssetRow {
  asset_id: string;
  name: string;
}

async function groupAssets(db: Db, auth: AuthUser, groupId: string, permission: "read" | "update"): Promise<AssetRow[]> {
  await requireAccess(db, auth, "read", [groupId], { types: ["group"], notFound: "Группа не найдена" });
  const ctx = await accessContext(db, auth);
  return db.all<AssetRow>(sql`SELECT a.asset_id, a.name FROM group_members m JOIN assets a ON a.asset_id = m.el_id
    WHERE m.group_id = ${groupId} AND m.el_type = 'asset' AND ${assetFilter(ctx, sql.raw("a.asset_id"), permission)}
    ORDER BY a.name LIMIT ${MAX_ROWS}`);
}

interface StoredValue {
  entity_id: string;
  def_id: string;
  data: string;
}

async function wholeValues(db: Db, assetIds: string[]): Promise<StoredValue[]> {
  if (!assetIds.length) return [];
  return db.all<StoredValue>(sql`SELECT entity_id, def_id, field_data AS data FROM field_values
    WHERE entity_id IN ${idList(assetIds)} AND entity_type = 'asset' AND pts_start IS NULL ORDER BY ctime, field_id`);
}

/** A stored value as a cell: text and numbers as they are, yes/no, lists joined, structures and regions as JSON. */
function cellOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(cellOf).join(SEPARATOR);
  if (typeof value === "boolean") return value ? "да" : "нет";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const isMultiple = (t: FieldTemplate) => (t.setup as { multiple?: boolean }).multiple === true;

/** A cell back to the field's value (null: it cannot be read as one; the checks then name the field). */
function cellValue(t: FieldTemplate, cell: string): unknown {
  const text = cell.trim();
  const list = () =>
    text
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean);
  switch (t.fieldType) {
    case "number":
      return text === "" || !Number.isFinite(Number(text.replace(",", "."))) ? text : Number(text.replace(",", "."));
    case "time":
      return /^\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case "bool":
      return ["да", "true", "1"].includes(text.toLowerCase()) ? true : ["нет", "false", "0"].includes(text.toLowerCase()) ? false : text;
    case "region":
    case "struct":
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return isMultiple(t) ? list() : text;
  }
}

export async function exportCsv(db: Db, auth: AuthUser, groupId: string): Promise<string> {
  const assets = await groupAssets(db, auth, groupId, "read");
  const values = await wholeValues(
    db,
    assets.map((a) => a.asset_id),
  );
  const defIds = [...new Set(values.map((v) => v.def_id))];
  const templates = defIds.length
    ? await db
        .select()
        .from(fieldTemplates)
        .where(sql`${fieldTemplates.fieldDefId} IN ${idList(defIds)}`)
        .orderBy(fieldTemplates.priority, fieldTemplates.name)
    : [];
  const byAsset = new Map<string, Map<string, unknown[]>>();
  for (const v of values) {
    const fields = byAsset.get(v.entity_id) ?? new Map<string, unknown[]>();
    fields.set(v.def_id, [...(fields.get(v.def_id) ?? []), JSON.parse(v.data)]);
    byAsset.set(v.entity_id, fields);
  }
  const rows = assets.map((a) => [
    a.asset_id,
    a.name,
    ...templates.map((t) => cellOf(byAsset.get(a.asset_id)?.get(t.fieldDefId)?.flat() ?? null)),
  ]);
  // The byte order mark makes spreadsheet programs read the file as UTF-8 (Cyrillic names and values). Names and
  // values are anyone's text: the one CSV writer keeps them from running as formulas (importCsv reads them back).
  return `\uFEFF${csvText([["asset_id", "name", ...templates.map((t) => t.name)], ...rows])}`;
}

export interface ImportRow {
  row: number;
  asset_id: string;
  name: string;
  changes: { field: string; def_id: string; old: string; new: string }[];
  errors: string[];
}

/**
 * Reads an edited export: every changed cell of every row is checked like any value (type, setup, references),
 * a row's problems stay with that row. `apply` then writes all valid changes at once (a set: the asset's value of
 * that field is replaced), or nothing when none is valid. An empty cell changes nothing.
 */
export async function importCsv(db: Db, auth: AuthUser, groupId: string, csv: string, apply: boolean) {
  const [header, ...lines] = parseCsv(csv);
  if (header?.[0]?.trim() !== "asset_id")
    throw new ApiError("validation", "Первый столбец CSV должен быть asset_id", [{ field: "csv", message: "нет столбца asset_id" }]);
  if (lines.length > MAX_ROWS)
    throw new ApiError("validation", `Не больше ${MAX_ROWS} строк`, [{ field: "csv", message: `не больше ${MAX_ROWS} строк` }]);

  const names = header.slice(2).map((h) => h.trim());
  const all = await db
    .select()
    .from(fieldTemplates)
    .where(sql`${fieldTemplates.name} IN ${idList(names.length ? names : [""])}`);
  const columns = names.map((name) => {
    const found = all.filter((t) => t.name === name);
    return {
      name,
      template: found.length === 1 ? found[0] : null,
      problem: found.length === 0 ? "нет такого поля" : found.length > 1 ? "несколько полей с таким именем" : null,
    };
  });
  const editable = new Map((await groupAssets(db, auth, groupId, "update")).map((a) => [a.asset_id, a]));
  const readable = new Map((await groupAssets(db, auth, groupId, "read")).map((a) => [a.asset_id, a]));
  const stored = await wholeValues(db, [...readable.keys()]);
  const templates = await loadTemplates(
    db,
    columns.flatMap((c) => (c.template ? [c.template.fieldDefId] : [])),
  );

  const report: ImportRow[] = [];
  const valid: ValueBody[] = [];
  for (const [i, line] of lines.entries()) {
    const assetId = (line[0] ?? "").trim().toLowerCase();
    const entry: ImportRow = { row: i + 2, asset_id: assetId, name: readable.get(assetId)?.name ?? line[1] ?? "", changes: [], errors: [] };
    report.push(entry);
    if (!readable.has(assetId)) {
      entry.errors.push("файл не найден в этой группе");
      continue;
    }
    const pending: typeof valid = [];
    for (const [k, column] of columns.entries()) {
      const cell = line[k + 2] ?? "";
      if (cell.trim() === "") continue;
      if (!column.template) {
        entry.errors.push(`${column.name}: ${column.problem}`);
        continue;
      }
      const current = stored
        .filter((v) => v.entity_id === assetId && v.def_id === column.template!.fieldDefId)
        .map((v) => JSON.parse(v.data));
      const old = cellOf(current.length > 1 ? current.flat() : (current[0] ?? null));
      // A cell as exported is no change, whatever its spaces: an untouched export imports as nothing to do.
      if (cell === old) continue;
      const value = cellValue(column.template, cell);
      if (cellOf(value) === old) continue;
      try {
        await checkValues(db, auth, templates, [{ at: "", defId: column.template.fieldDefId, data: value }]);
      } catch (error) {
        const detail = error instanceof ApiError ? (error.details?.[0]?.message ?? error.message) : String(error);
        entry.errors.push(`${column.name}: ${detail}`);
        continue;
      }
      entry.changes.push({ field: column.name, def_id: column.template.fieldDefId, old, new: cellOf(value) });
      pending.push({
        entity_id: assetId,
        entity_type: "asset",
        def_id: column.template.fieldDefId,
        field_data: value as ValueBody["field_data"],
      });
    }
    if (pending.length && !editable.has(assetId)) {
      entry.errors.push("недостаточно прав: нужно право «update»");
      continue;
    }
    valid.push(...pending);
  }
  let applied = 0;
  if (apply && valid.length) {
    for (let i = 0; i < valid.length; i += 1000) applied += (await createValues(db, auth, valid.slice(i, i + 1000), true, true)).length;
  }
  return { rows: report, changes: valid.length, applied };
}
