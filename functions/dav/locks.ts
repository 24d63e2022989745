import { and, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import { davLocks, type DavLock } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { nameKey } from "../groups/common";
import { literal } from "../lib/sql";

/**
 * WebDAV locks (RFC 4918 sections 6-7 and the If header, 10.4). A lock belongs to a path (segments
 * case-folded as group names are), so it covers a name whether or not an object holds it yet.
 */

export const lockKey = (segs: string[]) => `/${segs.map(nameKey).join("/")}`;
const ancestors = (key: string) => {
  const parts = key.split("/").filter(Boolean);
  return parts.map((_, i) => `/${parts.slice(0, i).join("/")}`);
};

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

/** Live locks that cover `key`: on it, on an ancestor with depth infinity, and (with `below`) anywhere under it. */
export async function locksCovering(db: Db, key: string, opts: { below?: boolean; parentToo?: boolean } = {}): Promise<DavLock[]> {
  const ups = ancestors(key);
  const parent = ups.at(-1);
  const now = nowSeconds();
  return db
    .select()
    .from(davLocks)
    .where(
      and(
        gt(davLocks.expiresAt, now),
        or(
          eq(davLocks.path, key),
          ups.length ? and(inArray(davLocks.path, ups), eq(davLocks.depth, -1)) : undefined,
          opts.parentToo && parent !== undefined ? eq(davLocks.path, parent) : undefined,
          opts.below ? sql`substr(${davLocks.path}, 1, ${key.length + 1}) = ${literal(`${key === "/" ? "" : key}/`)}` : undefined,
        ),
      ),
    );
}

export async function lockByToken(db: Db, token: string): Promise<DavLock | undefined> {
  return db
    .select()
    .from(davLocks)
    .where(and(eq(davLocks.token, token), gt(davLocks.expiresAt, nowSeconds())))
    .get();
}

export const sweepLocks = (db: Db) => db.delete(davLocks).where(lt(davLocks.expiresAt, nowSeconds()));

/** A lock covers `key` when it sits on it, or on an ancestor with depth infinity. */
export const covers = (lock: DavLock, key: string) =>
  lock.path === key || (lock.depth === -1 && key.startsWith(lock.path === "/" ? "/" : `${lock.path}/`));

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
export function newLock(key: string, depth: number, shared: boolean, ownerXml: string, userId: string, timeout: number): DavLock {
  return {
    token: `urn:uuid:${crypto.randomUUID()}`,
    path: key,
    depth,
    shared,
    ownerXml,
    userId,
    timeoutSeconds: timeout,
    expiresAt: nowSeconds() + timeout,
  };
}
