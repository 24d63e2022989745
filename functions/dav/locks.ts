import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { davLocks, groupMembers, groups, type DavLock } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { idList, literal } from "../lib/sql";
import type { Container, DavNode } from "./tree";

/**
 * WebDAV locks (RFC 4918 sections 6-7 and the If header, 10.4). A lock belongs to an object, a group or
 * an asset, never to a path: each user's /dav/ tree starts at their own readable roots, so one object
 * has several paths (a lock taken through one is honoured through all) and unrelated objects share one
 * (a lock on one user's "Film" says nothing about another user's "Film"). A depth-infinity lock on a
 * group covers its subgroups and every asset placed anywhere under it, whichever placement a client
 * reaches the asset through (an asset may sit in several groups).
 */

/**
 * Where a lock can reach a place in the tree: the object there (null for a name no object holds yet) and
 * every group above it (for an asset, above each of its placements), whose depth-infinity locks cover it.
 */
export interface LockScope {
  self: string | null;
  ups: Set<string>;
}

export const maxTimeout = 3600;
export const defaultTimeout = 600;

/** "Second-600, Infinite" -> seconds (capped: a client asking for Infinite gets an hour, and may refresh). */
export function parseTimeout(header: string | null): number {
  for (const t of (header ?? "").split(",").map((s) => s.trim())) {
    if (/^infinite$/i.test(t)) return maxTimeout;
    const m = /^second-(\d+)$/i.exec(t);
    if (m) return Math.max(1, Math.min(maxTimeout, Number(m[1])));
  }
  return defaultTimeout;
}

const pathIds = (path: string) => path.split("/").filter(Boolean);
const chunksOf = <T>(items: T[], size = 500) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/** The lock scopes of many nodes, in a couple of queries (chunked: a statement has a length limit). */
export async function scopesOf(db: Db, nodes: DavNode[]): Promise<LockScope[]> {
  const groupIds = [...new Set(nodes.flatMap((n) => (n.kind === "group" ? [n.id] : [])))];
  const assetIds = [...new Set(nodes.flatMap((n) => (n.kind === "asset" ? [n.asset.id] : [])))];
  const groupQueries = chunksOf(groupIds).map((c) =>
    db
      .select({ id: groups.groupId, path: groups.path })
      .from(groups)
      .where(inArray(groups.groupId, idList(c))),
  );
  const placementQueries = chunksOf(assetIds).map((c) =>
    db
      .select({ id: groupMembers.elId, path: groups.path })
      .from(groupMembers)
      .innerJoin(groups, eq(groups.groupId, groupMembers.groupId))
      .where(and(inArray(groupMembers.elId, idList(c)), eq(groupMembers.elType, "asset"), isNull(groups.deletedAt))),
  );
  const [first, ...rest] = [...groupQueries, ...placementQueries];
  const rows = first ? (await db.batch([first, ...rest])).flat() : [];
  const ups = new Map<string, Set<string>>();
  for (const row of rows) {
    const set = ups.get(row.id) ?? new Set<string>();
    for (const id of pathIds(row.path)) if (id !== row.id) set.add(id);
    ups.set(row.id, set);
  }
  return nodes.map((n) => {
    const self = n.kind === "group" ? n.id : n.kind === "asset" ? n.asset.id : null;
    return { self, ups: (self && ups.get(self)) || new Set<string>() };
  });
}

/** The scope of a node, or of a name no object holds yet under `parent` (covered by what covers the parent). */
export async function scopeOf(db: Db, node: DavNode | null, parent: Container | null): Promise<LockScope> {
  if (node) return (await scopesOf(db, [node]))[0];
  if (parent?.kind !== "group") return { self: null, ups: new Set() };
  const [above] = await scopesOf(db, [parent]);
  return { self: null, ups: new Set([...above.ups, parent.id]) };
}

/** A lock covers a scope when it sits on its object, or on a group above it with depth infinity. */
export const covers = (lock: DavLock, scope: LockScope) =>
  lock.entityId === scope.self || (lock.depth === -1 && scope.ups.has(lock.entityId));

/** Live locks on any of these objects. */
export async function locksOn(db: Db, ids: Iterable<string>): Promise<DavLock[]> {
  const list = [...new Set(ids)];
  if (list.length === 0) return [];
  const now = nowSeconds();
  const [first, ...rest] = chunksOf(list).map((c) =>
    db
      .select()
      .from(davLocks)
      .where(and(gt(davLocks.expiresAt, now), inArray(davLocks.entityId, idList(c)))),
  );
  return (await db.batch([first, ...rest])).flat();
}

/** Whether any lock is live at all: most trees have none, and a listing then skips working out who is covered. */
export async function anyLiveLock(db: Db): Promise<boolean> {
  return Boolean(await db.select({ t: davLocks.token }).from(davLocks).where(gt(davLocks.expiresAt, nowSeconds())).limit(1).get());
}

/** SQL: the lock's object is a group strictly under `groupId`, or an asset placed in `groupId` or under it. */
const underGroup = (groupId: string) => {
  const marker = literal(`/${groupId}/`);
  return sql`(EXISTS (SELECT 1 FROM ${groups} g WHERE g.group_id = ${davLocks.entityId} AND g.group_id <> ${literal(groupId)} AND instr(g.path, ${marker}) > 0)
    OR EXISTS (SELECT 1 FROM ${groupMembers} m JOIN ${groups} g ON g.group_id = m.group_id
      WHERE m.el_id = ${davLocks.entityId} AND m.el_type = 'asset' AND instr(g.path, ${marker}) > 0))`;
};

/**
 * Live locks in the way of a change at `scope`: on its object, on a group above it with depth infinity,
 * on `parentId` at any depth (a change of that collection's membership), and with `belowGroup` anywhere
 * under that group (a change to a whole subtree).
 */
export async function locksCovering(
  db: Db,
  scope: LockScope,
  opts: { parentId?: string | null; belowGroup?: string | null } = {},
): Promise<DavLock[]> {
  const ids = [...scope.ups, ...(scope.self ? [scope.self] : []), ...(opts.parentId ? [opts.parentId] : [])];
  const near = (await locksOn(db, ids)).filter((l) => covers(l, scope) || l.entityId === opts.parentId);
  if (!opts.belowGroup) return near;
  const below = await db
    .select()
    .from(davLocks)
    .where(and(gt(davLocks.expiresAt, nowSeconds()), underGroup(opts.belowGroup)));
  const seen = new Set(near.map((l) => l.token));
  return [...near, ...below.filter((l) => !seen.has(l.token))];
}

export async function lockByToken(db: Db, token: string): Promise<DavLock | undefined> {
  return db
    .select()
    .from(davLocks)
    .where(and(eq(davLocks.token, token), gt(davLocks.expiresAt, nowSeconds())))
    .get();
}

/** Locks go with the object they were on, and (for a group) with everything under it. */
export const dropLocks = (db: Db, node: DavNode) => {
  if (node.kind === "root") return Promise.resolve();
  const id = node.kind === "group" ? node.id : node.asset.id;
  return db.delete(davLocks).where(node.kind === "group" ? or(eq(davLocks.entityId, id), underGroup(id)) : eq(davLocks.entityId, id));
};

export const sweepLocks = (db: Db) => db.delete(davLocks).where(lt(davLocks.expiresAt, nowSeconds()));

export type Condition = { not: boolean; token?: string; etag?: string };
export type IfList = { resource?: string; conditions: Condition[] };

/** Parses an If header; null when it is malformed (answered 400). */
export function parseIf(header: string): IfList[] | null {
  const lists: IfList[] = [];
  let resource: string | undefined;
  let rest = header.trim();
  while (rest.length) {
    if (rest.startsWith("<")) {
      const end = rest.indexOf(">");
      if (end < 0) return null;
      resource = rest.slice(1, end);
      rest = rest.slice(end + 1).trim();
      continue;
    }
    if (!rest.startsWith("(")) return null;
    const end = rest.indexOf(")");
    if (end < 0) return null;
    let inner = rest.slice(1, end).trim();
    rest = rest.slice(end + 1).trim();
    const conditions: Condition[] = [];
    while (inner.length) {
      let not = false;
      if (/^not\b/i.test(inner)) {
        not = true;
        inner = inner.slice(3).trim();
      }
      if (inner.startsWith("<")) {
        const e = inner.indexOf(">");
        if (e < 0) return null;
        conditions.push({ not, token: inner.slice(1, e) });
        inner = inner.slice(e + 1).trim();
      } else if (inner.startsWith("[")) {
        const e = inner.indexOf("]");
        if (e < 0) return null;
        conditions.push({ not, etag: inner.slice(1, e) });
        inner = inner.slice(e + 1).trim();
      } else return null;
    }
    if (conditions.length === 0) return null;
    lists.push({ resource, conditions });
  }
  return lists.length ? lists : null;
}

/** Every state token an If header names: the tokens a client submits for the locks it holds. */
export const submittedTokens = (lists: IfList[] | null) =>
  new Set((lists ?? []).flatMap((l) => l.conditions.flatMap((c) => (c.token ? [c.token] : []))));

/**
 * Whether the locks in the way of a write are all answered: each exclusive lock's token submitted (by its
 * owner), and for shared locks at least one of theirs.
 */
export function locksAnswered(locks: DavLock[], tokens: Set<string>, userId: string): boolean {
  const held = (l: DavLock) => tokens.has(l.token) && l.userId === userId;
  const exclusive = locks.filter((l) => !l.shared);
  const shared = locks.filter((l) => l.shared);
  return exclusive.every(held) && (shared.length === 0 || shared.some(held));
}

/** Creates a lock row's values. */
export function newLock(entityId: string, depth: number, shared: boolean, ownerXml: string, userId: string, timeout: number): DavLock {
  return {
    token: `urn:uuid:${crypto.randomUUID()}`,
    entityId,
    depth,
    shared,
    ownerXml,
    userId,
    timeoutSeconds: timeout,
    expiresAt: nowSeconds() + timeout,
  };
}
