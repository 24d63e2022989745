import { sql, type SQL } from "drizzle-orm";
import { accessContext } from "../lib/access";
import { assetFilter, groupFilter } from "../lib/access-sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { literal } from "../lib/sql";
import { indexedColumn } from "./check-data";
import type { EntitiesByFieldBody, FieldFilter, SearchOp } from "../../shared/fields/schemas";
import { invalidFields } from "../lib/validation";
import { loadTemplates } from "./validate";

/**
 * entities-by-field: the entities holding a value of one template that satisfies `op`, filtered in SQL
 * to those the caller can read (lib/access-sql.ts), a page of them ordered by name and the total.
 * Single scalar values are sought in their typed column (index (def_id, value_text|value_num));
 * lists of values through json_each over field_data, regions and structs by `exists` only.
 */

type Scalar = string | number | boolean;
const fv = (col: string) => sql.raw(`fv.${col}`);
const ops: Record<Exclude<SearchOp, "exists" | "in" | "contains" | "prefix">, string> = {
  eq: "=",
  ne: "<>",
  lt: "<",
  lte: "<=",
  gt: ">",
  gte: ">=",
};

/** Values are inlined (D1 binds at most 100 parameters; an `in` list may hold 100 values). */
function condition(expr: SQL, op: SearchOp, value: Scalar | Scalar[] | undefined): SQL {
  if (op === "exists") return sql`1`;
  if (op === "in")
    return sql`${expr} IN (${sql.join(
      (value as Scalar[]).map((x) => literal(x)),
      sql`, `,
    )})`;
  const v = value as Scalar;
  // Case-insensitive as far as SQLite's lower() goes (ASCII); the full-text search is where language-aware matching lives.
  if (op === "contains") return sql`instr(lower(${expr}), ${literal(String(v).toLowerCase())}) > 0`;
  // A prefix is an index range: ["abc", "abc\uffff").
  if (op === "prefix") return sql`(${expr} >= ${literal(String(v))} AND ${expr} < ${literal(`${v}\uffff`)})`;
  return sql`${expr} ${sql.raw(ops[op])} ${literal(v)}`;
}

/**
 * The condition `fv` (a field_values row of the template) meets the filter, after checking the op and the
 * value's type against the template; `at` prefixes the field names of a refusal ("filters.fields.0.").
 */
export async function fieldValueMatch(db: Db, filter: FieldFilter, at = ""): Promise<SQL> {
  const templates = await loadTemplates(db, [filter.def_id]);
  const t = templates.get(filter.def_id);
  if (!t) throw invalidFields([{ field: `${at}def_id`, message: "нет такого шаблона поля" }]);
  const column = indexedColumn(t);
  const values = filter.value === undefined ? [] : Array.isArray(filter.value) ? filter.value : [filter.value];
  const numeric = column === "value_num" || ["number", "time", "bool"].includes(t.fieldType);
  if (filter.op !== "exists") {
    if (!column && !["text", "asset", "group", "user"].includes(t.fieldType))
      throw invalidFields([{ field: `${at}op`, message: `поля типа ${t.fieldType} ищутся только по exists` }]);
    if (numeric && ["contains", "prefix"].includes(filter.op))
      throw invalidFields([{ field: `${at}op`, message: "только для текстовых полей" }]);
    const wrong = values.find((v) => (numeric ? typeof v === "string" : typeof v !== "string"));
    if (wrong !== undefined)
      throw invalidFields([{ field: `${at}value`, message: numeric ? "должно быть числом" : "должно быть строкой" }]);
  }
  const match = column
    ? condition(fv(column), filter.op, filter.value)
    : sql`EXISTS (SELECT 1 FROM json_each(fv.field_data) je WHERE ${condition(sql.raw("je.value"), filter.op, filter.value)})`;
  return sql`fv.def_id = ${literal(filter.def_id)} AND ${match}`;
}

export async function entitiesByField(db: Db, auth: AuthUser, body: EntitiesByFieldBody) {
  const match = await fieldValueMatch(db, body);
  const ctx = await accessContext(db, auth);
  const readable = sql`((a.asset_id IS NOT NULL AND ${assetFilter(ctx, fv("entity_id"))})
    OR (g.group_id IS NOT NULL AND ${groupFilter(ctx, { path: sql.raw("g.path"), deletedAt: sql.raw("g.deleted_at") })}))`;
  const from = sql`FROM field_values fv
    LEFT JOIN assets a ON fv.entity_type = 'asset' AND a.asset_id = fv.entity_id
    LEFT JOIN groups g ON fv.entity_type = 'group' AND g.group_id = fv.entity_id
    WHERE ${match} AND ${readable}`;
  const [page, total] = await Promise.all([
    db.all<{ entity_id: string; entity_type: "asset" | "group"; name: string }>(
      sql`SELECT fv.entity_id, fv.entity_type, coalesce(a.name, g.group_name) AS name ${from}
        GROUP BY fv.entity_id ORDER BY name, fv.entity_id LIMIT ${literal(body.take)} OFFSET ${literal(body.skip)}`,
    ),
    db.get<{ n: number }>(sql`SELECT count(DISTINCT fv.entity_id) AS n ${from}`),
  ]);
  return { total: total?.n ?? 0, items: page };
}
