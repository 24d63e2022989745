import type { Db } from "./db";
import { type RawStatement, rawBatch, rawStatement } from "./sql";
import type { AuthUser } from "./env";
import type { Permission } from "../../shared/lib/permissions";

/**
 * The permission engine's first part: the caller's rules, teams and chroot, loaded once per request.
 * Evaluation (no DB) is ./access-rules.ts; the guards are ./access.ts (docs/decisions/064-owned-objects-in-the-engine.md).
 */

export interface AccessContext {
  userId: string;
  admin: boolean;
  /** Teams: live groups the user is a member of (group_members el_type 'user'). */
  teams: string[];
  /** Group rules without deny, with the path of their group. */
  grants: { path: string; acl: Permission[] }[];
  /** Paths of groups a rule denies: nothing below them is visible. */
  denyPaths: string[];
  assetGrants: Map<string, Permission[]>;
  assetDenies: Set<string>;
  /** null when not confined; otherwise the paths of the live chroot groups (empty: sees nothing). */
  chroot: string[] | null;
}

const contexts = new WeakMap<AuthUser, Promise<AccessContext>>();

/** The caller's rules, teams and chroot: loaded in one round trip, once per request (auth is per request). */
export function accessContext(db: Db, auth: AuthUser): Promise<AccessContext> {
  let ctx = contexts.get(auth);
  if (!ctx) {
    // An admin's rules change nothing (they pass every check), so they need no round trip.
    ctx = auth.isAdmin
      ? Promise.resolve(buildContext(auth, [[], [], []]))
      : rawBatch(db, contextStatements("?1", auth.userId), "read").then((rows) => buildContext(auth, rows));
    contexts.set(auth, ctx);
  }
  return ctx;
}

/**
 * The sign-in check (lib/auth.ts) loads the context in the same batch as the session row, so a
 * request pays one round trip for both and no check is ever served from a cache.
 */
export function primeAccessContext(auth: AuthUser, rows: ContextRows) {
  contexts.set(auth, Promise.resolve(buildContext(auth, rows)));
}

/**
 * The statements that load a context for the user `user` names: SQL text in which ?1 is the caller's key (`user` is
 * "?1" for a user id, or a subquery that finds the id from the session or token that the same batch checks). Chroot
 * groups are read from the user row itself. Written as text rather than built by drizzle: every signed-in request
 * runs them, and building them on each request was a large part of its CPU (docs/decisions/062-cost-of-a-request.md).
 */
export function contextStatements(user: string, key: string): RawStatement[] {
  const teams = `SELECT gm.group_id AS id FROM group_members gm JOIN groups g ON g.group_id = gm.group_id AND g.deleted_at IS NULL
    WHERE gm.el_id = ${user} AND gm.el_type = 'user'`;
  return [
    rawStatement(teams, key),
    rawStatement(
      `SELECT r.obj_id AS objId, r.obj_type AS objType, r.acl, g.path FROM access_rules r
        LEFT JOIN groups g ON r.obj_type = 'group' AND g.group_id = r.obj_id
        WHERE r.subj_id = ${user} OR (r.subj_type = 'group' AND r.subj_id IN (${teams}))`,
      key,
    ),
    rawStatement(
      `SELECT path FROM groups WHERE group_id IN (SELECT value FROM json_each((SELECT chroot_groups FROM users WHERE user_id = ${user})))
        AND deleted_at IS NULL`,
      key,
    ),
  ];
}

/** The rows of contextStatements, as the store answers them (the rule's acl is its JSON text). */
export type ContextRows = Record<string, unknown>[][];

/** The context the rows of contextStatements describe (pure: unit tests build contexts with it). */
export function buildContext(auth: Pick<AuthUser, "userId" | "isAdmin" | "chrootGroups">, rows: ContextRows): AccessContext {
  const [teamRows, ruleRows, chrootRows] = rows as [
    { id: string }[],
    { objId: string; objType: string; acl: string; path: string | null }[],
    { path: string }[],
  ];
  const base: AccessContext = {
    userId: auth.userId,
    admin: auth.isAdmin,
    teams: [],
    grants: [],
    denyPaths: [],
    assetGrants: new Map(),
    assetDenies: new Set(),
    chroot: null,
  };
  if (auth.isAdmin) return base;
  base.teams = teamRows.map((r) => r.id);
  for (const r of ruleRows) {
    const acl = JSON.parse(r.acl) as Permission[];
    const deny = acl.includes("deny");
    if (r.objType === "asset") {
      if (deny) base.assetDenies.add(r.objId);
      else base.assetGrants.set(r.objId, [...(base.assetGrants.get(r.objId) ?? []), ...acl]);
    } else if (r.path) {
      if (deny) base.denyPaths.push(r.path);
      else base.grants.push({ path: r.path, acl });
    }
  }
  if (auth.chrootGroups.length) base.chroot = chrootRows.map((r) => r.path);
  return base;
}
