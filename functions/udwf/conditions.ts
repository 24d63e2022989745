import { sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { rawBatch, rawStatement } from "../lib/sql";
import type { Condition } from "../../shared/udwf/schemas";

/**
 * A run's conditions (and stop-if's) on its entity: the latest version's main file for mime and size, the groups
 * it is placed in, its class, its tags and its field values. Read fresh when the step runs.
 */

export interface Subject {
  id: string;
  type: string;
}

interface Facts {
  mime: string | null;
  size: number | null;
  classId: string | null;
  paths: string[];
  tags: Set<string>;
}

async function factsOf(db: Db, s: Subject): Promise<Facts> {
  const [file, cls, paths, tagRows] = await rawBatch(db, [
    rawStatement(
      `SELECT mime_type AS mime, content_size AS size FROM variants WHERE asset_id = ?
        ORDER BY version DESC, CASE WHEN variant_type IN ('initial', 'untyped') THEN 0 ELSE 1 END, ctime LIMIT 1`,
      s.id,
    ),
    rawStatement("SELECT class_id AS c FROM assets WHERE asset_id = ?", s.id),
    rawStatement(
      `SELECT g.path FROM group_members m JOIN groups g ON g.group_id = m.group_id WHERE m.el_id = ? AND g.deleted_at IS NULL
        UNION SELECT path FROM groups WHERE group_id = ?`,
      s.id,
      s.id,
    ),
    rawStatement("SELECT tag_id AS t FROM entity_tags WHERE entity_id = ?", s.id),
  ]);
  return {
    mime: (file[0]?.mime as string | undefined) ?? null,
    size: file[0]?.size === undefined || file[0].size === null ? null : Number(file[0].size),
    classId: (cls[0]?.c as string | null | undefined) ?? null,
    paths: paths.map((p) => String(p.path)),
    tags: new Set(tagRows.map((t) => String(t.t))),
  };
}

const compare = (op: string, a: unknown, b: unknown): boolean => {
  if (a === null || a === undefined) return op === "ne";
  const num = typeof b === "number" && typeof a === "number";
  const [x, y] = num ? [a as number, b as number] : [String(a), String(b)];
  switch (op) {
    case "eq":
      return x === y;
    case "ne":
      return x !== y;
    case "gt":
      return x > y;
    case "gte":
      return x >= y;
    case "lt":
      return x < y;
    case "lte":
      return x <= y;
    case "prefix":
      return String(a).toLowerCase().startsWith(String(b).toLowerCase());
    case "contains":
      return String(a).toLowerCase().includes(String(b).toLowerCase());
    default:
      return false;
  }
};

async function fieldValues(db: Db, s: Subject, defId: string): Promise<unknown[]> {
  const rows = await db.all<{ v: string }>(sql`SELECT field_data AS v FROM field_values WHERE entity_id = ${s.id} AND def_id = ${defId}`);
  return rows.map((r) => JSON.parse(r.v));
}

/** Whether every condition holds; the first that does not is named for the run log. */
export async function checkConditions(
  db: Db,
  s: Subject | null,
  conditions: Condition[],
): Promise<{ ok: true } | { ok: false; failed: number }> {
  if (!conditions.length) return { ok: true };
  if (!s) return { ok: false, failed: 0 };
  const facts = await factsOf(db, s);
  for (const [i, c] of conditions.entries()) {
    if (!(await holds(db, s, facts, c))) return { ok: false, failed: i };
  }
  return { ok: true };
}

async function holds(db: Db, s: Subject, f: Facts, c: Condition): Promise<boolean> {
  switch (c.on) {
    case "mime":
      return compare(c.op, f.mime, c.value);
    case "size":
      return compare(c.op, f.size, Number(c.value));
    case "class":
      return compare(c.op, f.classId, c.value);
    case "tag":
      return c.op === "has" ? f.tags.has(String(c.value)) : !f.tags.has(String(c.value));
    case "group": {
      const rows = await db.all<{ path: string }>(sql`SELECT path FROM groups WHERE group_id = ${String(c.value)}`);
      const inside = !!rows[0] && f.paths.some((p) => p.startsWith(rows[0].path));
      return c.op === "in" ? inside : !inside;
    }
    case "field": {
      const values = await fieldValues(db, s, c.def_id!);
      return c.op === "ne" ? values.every((v) => compare("ne", v, c.value)) : values.some((v) => compare(c.op, v, c.value));
    }
  }
}
