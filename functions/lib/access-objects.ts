import { inArray, sql, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { davLocks, shopOrders, udwfShares, udwfWorkflows, uploads, users } from "../../db/schema";
import { VIRTUAL_ROOT_ID } from "../../shared/lib/constants";
import type { Db } from "./db";
import type { OwnedKind, OwnedObject, ResolvedObject } from "./access-rules";
import { idList, type RawStatement, rawBatch, statementOf } from "./sql";

/**
 * The permission engine's object resolution: finds the objects a check names by id, as ./access-rules.ts judges
 * them. Groups and assets share one id space and one lookup; owned objects are found per kind, in their own table.
 */

/** SQL: the asset in `assetId` is a member of some group (a deleted one counts: it may come back). */
export const placedAnywhere = (assetId: SQLWrapper) =>
  sql<number>`EXISTS (SELECT 1 FROM group_members pa WHERE pa.el_id = ${assetId} AND pa.el_type = 'asset')`;

/** The statements that find objects by id, in resolveObjects' order: groups, live placements, asset rows. */
function objectStatements(ids: string[]): RawStatement[] {
  const list = idList(ids);
  return [
    statementOf(sql`SELECT group_id AS id, path, deleted_at AS deletedAt FROM groups WHERE group_id IN ${list}`),
    statementOf(sql`SELECT gm.el_id AS id, g.path FROM group_members gm JOIN groups g ON g.group_id = gm.group_id AND g.deleted_at IS NULL
      WHERE gm.el_id IN ${list} AND gm.el_type = 'asset'`),
    statementOf(
      sql`SELECT a.asset_id AS id, a.owner, ${placedAnywhere(sql.raw("a.asset_id"))} AS placed FROM assets a WHERE a.asset_id IN ${list}`,
    ),
  ];
}

type ObjectRows = [
  { id: string; path: string; deletedAt: number | null }[],
  { id: string; path: string }[],
  { id: string; owner: string | null; placed: number }[],
];

/** The objects the rows of objectStatements describe (`found` may already hold the virtual root). */
function objectsFrom(found: Map<string, ResolvedObject>, [groupRows, placementRows, assetRows]: ObjectRows, opts: { deleted?: boolean }) {
  for (const g of groupRows) {
    if (g.deletedAt === null || opts.deleted) found.set(g.id, { id: g.id, type: "group", path: g.path, deleted: g.deletedAt !== null });
  }
  for (const p of placementRows) {
    if (found.get(p.id)?.type === "group") continue;
    const asset = found.get(p.id) as Extract<ResolvedObject, { type: "asset" }> | undefined;
    if (asset) asset.placements.push(p.path);
    else found.set(p.id, { id: p.id, type: "asset", placements: [p.path], owner: null, placed: true });
  }
  for (const a of assetRows) {
    const asset = found.get(a.id);
    if (asset?.type === "group") continue;
    found.set(a.id, { id: a.id, type: "asset", placements: asset?.placements ?? [], owner: a.owner, placed: Boolean(a.placed) });
  }
  return found;
}

/**
 * Finds groups and assets by id, in one round trip together with `alongside` (a caller's own reads; their rows
 * come back after the objects'): an asset is a row of `assets` (or, for rows older than that table, a live
 * placement). `deleted` includes soft-deleted groups (restore, purge).
 */
export async function findObjects(db: Db, ids: string[], opts: { deleted?: boolean }, alongside: RawStatement[] = []) {
  const found = new Map<string, ResolvedObject>();
  const wanted = [...new Set(ids)].filter((id) => {
    if (id !== VIRTUAL_ROOT_ID) return true;
    found.set(id, { id, type: "group", path: "/", deleted: false, virtual: true });
    return false;
  });
  if (wanted.length === 0 && alongside.length === 0) return { objects: found, rows: [] };
  const statements = wanted.length ? objectStatements(wanted) : [];
  const results = await rawBatch(db, [...statements, ...alongside], "read");
  if (wanted.length) objectsFrom(found, results.slice(0, 3) as unknown as ObjectRows, opts);
  return { objects: found, rows: results.slice(statements.length) };
}

/** Groups and assets by id (see findObjects). */
export async function resolveObjects(db: Db, ids: string[], opts: { deleted?: boolean } = {}) {
  return (await findObjects(db, ids, opts)).objects;
}

/** Where each owned kind lives: its table, and the properties of its row that hold its key and its owner. */
const ownedTables = {
  upload: { table: uploads, key: "uploadId", owner: "userId" },
  order: { table: shopOrders, key: "orderId", owner: "userId" },
  workflow: { table: udwfWorkflows, key: "workflowId", owner: "owner" },
  // A user's own account (its storage choice, functions/storage): the user is its own owner.
  user: { table: users, key: "userId", owner: "userId" },
  davLock: { table: davLocks, key: "token", owner: "userId" },
} as const satisfies Record<OwnedKind, { table: SQLiteTable; key: string; owner: string }>;

export type OwnedRow<K extends OwnedKind> = (typeof ownedTables)[K]["table"]["$inferSelect"];

/**
 * Owned objects of one kind by id, each with its row (so a guard's caller needs no second read), in one round
 * trip; a workflow's shares come in the same batch.
 */
export async function resolveOwned<K extends OwnedKind>(db: Db, kind: K, ids: string[]) {
  const { table, key, owner } = ownedTables[kind];
  const column = (table as unknown as Record<string, SQLiteColumn>)[key];
  const list = idList([...new Set(ids)]);
  const rowsQuery = db.select().from(table).where(inArray(column, list));
  const [rows, shareRows] =
    kind === "workflow"
      ? await db.batch([rowsQuery, db.select().from(udwfShares).where(inArray(udwfShares.workflowId, list))])
      : [await rowsQuery, []];
  const found = new Map<string, { object: OwnedObject; row: OwnedRow<K> }>();
  for (const row of rows as Record<string, unknown>[]) {
    const id = row[key] as string;
    const shares = kind === "workflow" ? shareRows.filter((s) => s.workflowId === id) : undefined;
    const object: OwnedObject = {
      id,
      type: kind,
      owner: row[owner] as string,
      shares: shares?.map(({ subjType, subjId, role }) => ({ subjType, subjId, role })),
    };
    found.set(id, { object, row: row as OwnedRow<K> });
  }
  return found;
}
