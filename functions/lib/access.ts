import { eq, sql, type SQLWrapper } from "drizzle-orm";
import { assets, groups } from "../../db/schema";
import type { Db } from "./db";
import { type RawStatement, rawBatch, rawStatement, statementOf } from "./sql";
import type { AuthUser } from "./env";
import { VIRTUAL_ROOT_ID } from "./constants";
import { ApiError } from "./errors";
import { permissionValues, type Permission } from "./permissions";
import { idList } from "./sql";

/**
 * The permission engine: the one place that answers "may this caller do P on these ids" and
 * "which rows may it read". Semantics: docs/decisions/003-permission-engine.md.
 * SQL filters for list queries live in ./access-sql.ts and use the same AccessContext.
 */

export { VIRTUAL_ROOT_ID, VIRTUAL_ROOT_NAME } from "./constants";

/** Everything a grant can give; superuser and admin mean all of these. */
export const allGrants: Permission[] = permissionValues.filter((p) => p !== "deny");

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

/**
 * An asset as the engine judges it: its live placements (group paths), its owner, and whether it is
 * placed at all. `placed` is false only for an asset in no group (not even a deleted one).
 */
export type AssetPlacing = { id: string; placements: string[]; owner: string | null; placed: boolean };

export type ResolvedObject =
  | { id: string; type: "group"; path: string; deleted: boolean; virtual?: boolean }
  | ({ type: "asset" } & AssetPlacing);

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

function buildContext(auth: AuthUser, rows: ContextRows): AccessContext {
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

const under = (path: string, prefixes: string[]) => prefixes.some((p) => path.startsWith(p));

/** Closes a union of granted values: superuser gives everything, any grant implies read. */
function close(set: Set<Permission>): Permission[] | null {
  if (set.size === 0) return null;
  if (set.has("superuser")) return [...allGrants];
  set.add("read");
  return allGrants.filter((p) => set.has(p));
}

/** The caller's permissions on a live group at `path`, or null when it may not read it. */
export function groupPermissions(ctx: AccessContext, path: string): Permission[] | null {
  if (ctx.admin) return [...allGrants];
  if (ctx.chroot && !under(path, ctx.chroot)) return null;
  if (under(path, ctx.denyPaths)) return null;
  const set = new Set<Permission>();
  for (const g of ctx.grants) if (path.startsWith(g.path)) for (const p of g.acl) set.add(p);
  return close(set);
}

/** Rights that mean something on an asset: `create` and `group` act on groups only. */
export const assetRights = allGrants.filter((p) => p !== "create" && p !== "group");

/**
 * An asset's permissions: its own rules plus those of every live placement (inside the chroot); any
 * deny wins. An asset in no group at all (created without in_group, or an orphan of a purge) is its
 * owner's: they hold every asset right on it, nobody else but admins sees it. An asset whose every
 * placement is a deleted group is unreachable until a restore (docs/decisions/004-group-delete-and-purge.md).
 * The SQL twin for lists is assetFilter in ./access-sql.ts.
 */
export function assetPermissions(ctx: AccessContext, asset: AssetPlacing): Permission[] | null {
  if (ctx.admin) return [...allGrants];
  if (!asset.placed) return asset.owner === ctx.userId ? [...assetRights] : null;
  const { id: assetId, placements } = asset;
  const places = ctx.chroot ? placements.filter((p) => under(p, ctx.chroot!)) : placements;
  if (places.length === 0) return null;
  if (ctx.assetDenies.has(assetId) || places.some((p) => under(p, ctx.denyPaths))) return null;
  const set = new Set<Permission>(ctx.assetGrants.get(assetId) ?? []);
  for (const g of ctx.grants) if (places.some((p) => p.startsWith(g.path))) for (const p of g.acl) set.add(p);
  return close(set);
}

export function permissionsOn(ctx: AccessContext, obj: ResolvedObject): Permission[] | null {
  if (obj.type === "asset") return assetPermissions(ctx, obj);
  if (obj.virtual) return ctx.admin ? [...allGrants] : ["read"];
  return groupPermissions(ctx, obj.path);
}

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
async function findObjects(db: Db, ids: string[], opts: { deleted?: boolean }, alongside: RawStatement[] = []) {
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

export const notFound = (message = "Объект не найден") => new ApiError("not_found", message);

type RequireOptions = { deleted?: boolean; notFound?: string; types?: ResolvedObject["type"][] };

/**
 * Throws not_found for ids that do not exist or that the caller may not read (the same answer, so
 * nothing leaks), forbidden when it can read one but lacks `permission`. Returns the resolved objects.
 */
export async function requireAccess(
  db: Db,
  auth: AuthUser,
  permission: Permission,
  ids: string[],
  opts: RequireOptions = {},
): Promise<Map<string, ResolvedObject>> {
  const [ctx, objects] = await Promise.all([accessContext(db, auth), resolveObjects(db, ids, opts)]);
  return checked(ctx, permission, ids, objects, opts);
}

/**
 * requireAccess with the caller's reads in the same round trip as the object lookup: the rows of `reads` (in
 * their order) are handed back only once the check passed, so nothing of an object the caller may not see leaves.
 */
export async function requireAccessReading(
  db: Db,
  auth: AuthUser,
  permission: Permission,
  ids: string[],
  reads: RawStatement[],
  opts: RequireOptions = {},
): Promise<Record<string, unknown>[][]> {
  const [ctx, { objects, rows }] = await Promise.all([accessContext(db, auth), findObjects(db, ids, opts, reads)]);
  checked(ctx, permission, ids, objects, opts);
  return rows;
}

function checked(ctx: AccessContext, permission: Permission, ids: string[], objects: Map<string, ResolvedObject>, opts: RequireOptions) {
  let lacking: string | undefined;
  for (const id of ids) {
    const obj = objects.get(id);
    if (!obj || (opts.types && !opts.types.includes(obj.type))) throw notFound(opts.notFound);
    const perms = permissionsOn(ctx, obj);
    if (!perms) throw notFound(opts.notFound);
    if (permission !== "read" && !perms.includes(permission)) lacking ??= id;
  }
  // Every id is checked for visibility before any forbidden, so 403 never confirms a hidden id.
  if (lacking) throw new ApiError("forbidden", `Недостаточно прав: нужно право «${permission}»`);
  return objects;
}

/** The caller's permissions on one object, or not_found. */
export async function entityAccess(db: Db, auth: AuthUser, id: string) {
  const [ctx, objects] = await Promise.all([accessContext(db, auth), resolveObjects(db, [id])]);
  const obj = objects.get(id);
  const perms = obj && permissionsOn(ctx, obj);
  if (!obj || !perms) throw notFound();
  return { obj, perms };
}

/** The caller's rules and chroot as they would read with the subtree at `from` moved to `to`: a moved group takes its own rules along. */
function rebased(ctx: AccessContext, from: string, to: string): AccessContext {
  const move = (p: string) => (p.startsWith(from) ? to + p.slice(from.length) : p);
  return {
    ...ctx,
    grants: ctx.grants.map((g) => ({ ...g, path: move(g.path) })),
    denyPaths: ctx.denyPaths.map(move),
    chroot: ctx.chroot ? ctx.chroot.map(move) : null,
  };
}

/**
 * Placing never widens (docs/decisions/024-placing-rights-transcoder-quota.md): putting `items` into the
 * group `to` (for a move, out of `from` as well) is refused when the caller would then hold a right on an
 * item that it lacks now. Rights follow the place, so without this `group` on a folder one manages would
 * turn `read` on someone else's file into `superuser` on it. `superuser` on the item (as a group manager
 * has on everything below their group) always passes, and so does re-filing between places that give the
 * caller the same rights. A group is judged at its own level: what it gains there, everything below it
 * gains too, and nothing more. Visibility of the items and rights on the groups are requireAccess's part.
 */
export async function requirePlacement(
  db: Db,
  auth: AuthUser,
  items: { id: string; type: "asset" | "group" }[],
  to: string,
  from?: string,
) {
  const ctx = await accessContext(db, auth);
  if (ctx.admin || items.length === 0) return;
  const objects = await resolveObjects(db, [to, ...(from ? [from] : []), ...items.map((i) => i.id)]);
  const pathOf = (id: string) => {
    const o = objects.get(id);
    return o?.type === "group" ? o.path : "/";
  };
  const toPath = pathOf(to);
  const widened: { id: string; type: "asset" | "group"; extra: Permission[] }[] = [];
  for (const item of items) {
    const obj = objects.get(item.id);
    if (!obj || obj.type !== item.type) throw notFound();
    let before: Permission[] | null;
    let after: Permission[] | null;
    if (obj.type === "group") {
      const newPath = `${toPath}${obj.id}/`;
      before = groupPermissions(ctx, obj.path);
      after = groupPermissions(rebased(ctx, obj.path, newPath), newPath);
    } else {
      const kept = [...obj.placements];
      const left = from ? kept.indexOf(pathOf(from)) : -1;
      if (left >= 0) kept.splice(left, 1);
      before = assetPermissions(ctx, obj);
      after = assetPermissions(ctx, { ...obj, placements: [...kept, toPath], placed: true });
    }
    const meaningful = obj.type === "asset" ? assetRights : allGrants;
    const extra = (after ?? []).filter((p) => meaningful.includes(p) && !(before ?? []).includes(p));
    if (extra.length) widened.push({ id: obj.id, type: obj.type, extra });
  }
  if (widened.length === 0) return;
  const first = widened[0];
  const named =
    first.type === "group"
      ? await db.select({ name: groups.groupName }).from(groups).where(eq(groups.groupId, first.id)).get()
      : await db.select({ name: assets.name }).from(assets).where(eq(assets.assetId, first.id)).get();
  const rights = first.extra.map((p) => `«${p}»`).join(", ");
  throw new ApiError(
    "forbidden",
    `Нельзя поместить «${named?.name ?? first.id}» в эту группу: там у вас появились бы права ${rights}, которых на него сейчас нет. Нужно право «superuser» на сам элемент`,
  );
}

/** Team membership hands out the team's rules, so only admins change it. */
export function requireTeamChange(auth: AuthUser) {
  if (!auth.isAdmin) throw new ApiError("forbidden", "Состав команд (пользователей в группах) меняют только администраторы");
}

/** What a caller may do with an object someone owns and shares (automations): everything, edit, view, or nothing. */
export type SharedAccess = "owner" | "edit" | "view";
export interface ShareGrant {
  subjType: "user" | "team";
  subjId: string;
  role: "view" | "edit";
}

const sharedRank: Record<SharedAccess, number> = { view: 1, edit: 2, owner: 3 };

/**
 * The caller's access to an object owned by `owner` and shared by `shares` (with users, or with teams: groups the
 * caller is a member of). The owner and admins hold "owner" (only they share and delete); the best share decides for
 * anyone else; null when none names the caller. Sharing lends the object, never the owner's rights: what the object
 * does is still judged against its owner.
 */
export async function sharedAccess(db: Db, auth: AuthUser, owner: string, shares: ShareGrant[]): Promise<SharedAccess | null> {
  if (auth.isAdmin || owner === auth.userId) return "owner";
  if (!shares.length) return null;
  const ctx = await accessContext(db, auth);
  let best: SharedAccess | null = null;
  for (const s of shares) {
    const mine = s.subjType === "user" ? s.subjId === auth.userId : ctx.teams.includes(s.subjId);
    if (mine && (!best || sharedRank[s.role] > sharedRank[best])) best = s.role;
  }
  return best;
}

/** `have` covers `need` (owner ⊃ edit ⊃ view). */
export const sharedAllows = (have: SharedAccess | null, need: SharedAccess) => !!have && sharedRank[have] >= sharedRank[need];

/**
 * What a review link gives its guest (docs/decisions/061-review-and-approval.md, "External reviewers"): `read` on
 * exactly the link's asset within its version's round, and nothing anywhere else — a guest is no user, so no rule,
 * group or chroot applies. The link's creator's own read is re-checked whenever the link is opened
 * (functions/sl/public.ts openLink), so a guest never holds more than the person who invited them.
 */
export interface GuestGrant {
  assetId: string;
  version: number;
}

export function guestPermissions(grant: GuestGrant, assetId: string, version: number): Permission[] | null {
  return grant.assetId === assetId && grant.version === version ? ["read"] : null;
}

/** As entityAccess for users: anything outside the guest's grant is not found, like an asset they cannot see. */
export function requireGuestAccess(grant: GuestGrant, assetId: string, version: number): Permission[] {
  const perms = guestPermissions(grant, assetId, version);
  if (!perms) throw notFound();
  return perms;
}
