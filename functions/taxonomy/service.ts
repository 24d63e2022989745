import { and, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { taxa, taxonMembers, type Taxon } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { batchAll } from "../lib/batch";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { ApiError } from "../lib/errors";
import { eventInsert } from "../lib/events";
import { newId } from "../lib/ids";
import { idList, inSubtree, literal, isUniqueViolation } from "../lib/sql";
import { invalidFields } from "../lib/validation";
import { nameKey, tidyName } from "../tags/name-key";
import type { ChangeTaxonBody } from "../../shared/taxonomy/schemas";

/** The taxonomy tree and its changes (docs/decisions/032-tags-and-taxonomy.md). */

export const taxonNotFound = () => new ApiError("not_found", "Раздел таксономии не найден");
const out = (t: Pick<Taxon, "taxonId" | "name" | "parentId" | "depth">) => ({
  taxon_id: t.taxonId,
  name: t.name,
  parent: t.parentId,
  depth: t.depth,
});

export async function loadTaxon(db: Db, id: string): Promise<Taxon> {
  const row = await db.select().from(taxa).where(eq(taxa.taxonId, id)).get();
  if (!row) throw taxonNotFound();
  return row;
}

/** The whole tree, flat: each taxon after its parent, siblings by name (a tree view nests it by `parent`). */
export async function taxonomyTree(db: Db) {
  const rows = await db
    .select({ taxonId: taxa.taxonId, name: taxa.name, parentId: taxa.parentId, depth: taxa.depth, nameKey: taxa.nameKey })
    .from(taxa)
    .all();
  const children = new Map<string | null, typeof rows>();
  for (const r of rows) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r]);
  const ordered: ReturnType<typeof out>[] = [];
  const walk = (parent: string | null) => {
    const list = (children.get(parent) ?? []).sort((a, b) => (a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : 0));
    for (const r of list) {
      ordered.push(out(r));
      walk(r.taxonId);
    }
  };
  walk(null);
  return ordered;
}

const nameTaken = (name: string, field: string) =>
  new ApiError("conflict", `Раздел «${name}» уже есть на этом уровне`, [{ field, message: "имя занято" }]);

/**
 * Finds the path's taxa level by level (names compared by key) and creates the missing rest in one
 * batch; an existing path creates nothing. Two callers creating the same path at once: the loser hits
 * the sibling-name index, walks again and finds the winner's taxa.
 */
export async function createByPath(db: Db, auth: AuthUser, names: string[]): Promise<{ taxon_id: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await createMissing(db, auth, names.map(tidyName));
    } catch (err) {
      if (attempt > 0 || !isUniqueViolation(err, "taxa")) throw err;
    }
  }
}

async function createMissing(db: Db, auth: AuthUser, names: string[]) {
  const keys = names.map(nameKey);
  const candidates = await db
    .select({ id: taxa.taxonId, parentId: taxa.parentId, nameKey: taxa.nameKey, path: taxa.path })
    .from(taxa)
    .where(inArray(taxa.nameKey, idList([...new Set(keys)])))
    .all();
  let parent: { id: string; path: string } | null = null;
  let level = 0;
  for (; level < keys.length; level++) {
    const parentId: string | null = parent?.id ?? null;
    const hit: (typeof candidates)[number] | undefined = candidates.find((c) => c.parentId === parentId && c.nameKey === keys[level]);
    if (!hit) break;
    parent = hit;
  }
  if (level === keys.length) return { taxon_id: parent!.id };
  const now = nowSeconds();
  const rows: (typeof taxa.$inferInsert)[] = [];
  for (; level < keys.length; level++) {
    const taxonId = newId();
    const path: string = `${parent?.path ?? "/"}${taxonId}/`;
    rows.push({
      taxonId,
      name: names[level],
      nameKey: keys[level],
      parentId: parent?.id ?? null,
      path,
      depth: level + 1,
      ctime: now,
      mtime: now,
    });
    parent = { id: taxonId, path };
  }
  await batchAll(db, [
    ...rows.map((r) => db.insert(taxa).values(r)),
    ...rows.map((r) =>
      eventInsert(db, {
        kind: "taxon.create",
        userId: auth.userId,
        entityType: "taxon",
        entityId: r.taxonId,
        data: { name: r.name, parent: r.parentId },
      }),
    ),
  ]);
  return { taxon_id: parent!.id };
}

const badParent = (message: string) => invalidFields([{ field: "parent", message }]);

async function assertNameFree(db: Db, parentId: string | null, key: string, name: string, exceptId: string) {
  const clash = await db
    .select({ id: taxa.taxonId })
    .from(taxa)
    .where(and(eq(taxa.nameKey, key), parentId === null ? isNull(taxa.parentId) : eq(taxa.parentId, parentId), ne(taxa.taxonId, exceptId)))
    .get();
  if (clash) throw nameTaken(name, "name");
}

/** Renames and/or moves a taxon with its subtree; a move into itself or below itself is refused (no cycles). */
export async function changeTaxon(db: Db, auth: AuthUser, id: string, body: ChangeTaxonBody) {
  const current = await loadTaxon(db, id);
  const name = body.name === undefined ? current.name : tidyName(body.name);
  const parentId = body.parent === undefined ? current.parentId : body.parent;
  let path = current.path;
  let depth = current.depth;
  if (parentId !== current.parentId) {
    let parentPath = "/";
    if (parentId !== null) {
      const parent = await db.select({ path: taxa.path }).from(taxa).where(eq(taxa.taxonId, parentId)).get();
      if (!parent) throw badParent("нет такого раздела");
      if (parent.path.startsWith(current.path)) throw badParent("нельзя перенести раздел в него самого или в его потомка");
      parentPath = parent.path;
    }
    path = `${parentPath}${id}/`;
    depth = parentPath.split("/").filter(Boolean).length + 1;
  }
  await assertNameFree(db, parentId, nameKey(name), name, id);
  const statements: SQL[] = [];
  if (path !== current.path) {
    // The subtree's paths and depths in one UPDATE over the path index (the taxon itself included).
    statements.push(sql`UPDATE taxa SET path = ${literal(path)} || substr(path, ${literal(current.path.length + 1)}),
      depth = depth + ${literal(depth - current.depth)} WHERE ${inSubtree(taxa.path, current.path)}`);
  }
  try {
    await batchAll(db, [
      db
        .update(taxa)
        .set({ name, nameKey: nameKey(name), parentId, mtime: nowSeconds() })
        .where(eq(taxa.taxonId, id)),
      ...statements.map((s) => db.run(s)),
      eventInsert(db, { kind: "taxon.update", userId: auth.userId, entityType: "taxon", entityId: id, data: body }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, "taxa")) throw nameTaken(name, "name");
    throw err;
  }
  return out({ taxonId: id, name, parentId, depth });
}

/** Deletes a taxon with its whole subtree and every membership in them; the objects themselves stay. */
export async function deleteTaxon(db: Db, auth: AuthUser, id: string) {
  const current = await loadTaxon(db, id);
  const inTree = db.select({ id: taxa.taxonId }).from(taxa).where(inSubtree(taxa.path, current.path));
  await db.batch([
    db.delete(taxonMembers).where(inArray(taxonMembers.taxonId, inTree)),
    db.delete(taxa).where(inSubtree(taxa.path, current.path)),
    eventInsert(db, { kind: "taxon.delete", userId: auth.userId, entityType: "taxon", entityId: id, data: { name: current.name } }),
  ]);
  return { ok: true as const };
}
