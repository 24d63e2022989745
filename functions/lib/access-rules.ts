import type { AccessContext } from "./access-context";
import { permissionValues, type Permission } from "../../shared/lib/permissions";

/**
 * The permission engine's evaluation: what a caller (its AccessContext) may do on one resolved object. Pure — no
 * DB, no request — so tests/unit/access-rules.test.ts checks it in Node. Semantics: docs/decisions/003-permission-engine.md;
 * owned objects: docs/decisions/064-owned-objects-in-the-engine.md. The SQL twins for lists are in ./access-sql.ts.
 */

/** Everything a grant can give; superuser and admin mean all of these. */
export const allGrants: Permission[] = permissionValues.filter((p) => p !== "deny");

/** Rights that mean something on an asset: `create` and `group` act on groups only. */
export const assetRights = allGrants.filter((p) => p !== "create" && p !== "group");

/**
 * An asset as the engine judges it: its live placements (group paths), its owner, and whether it is
 * placed at all. `placed` is false only for an asset in no group (not even a deleted one).
 */
export type AssetPlacing = { id: string; placements: string[]; owner: string | null; placed: boolean };

/** Objects that belong to one user (its owner), found by their own key: see ./access-objects.ts for their tables. */
export const ownedKinds = ["upload", "order", "workflow", "user", "davLock"] as const;
export type OwnedKind = (typeof ownedKinds)[number];

/** What a caller may do with an object someone owns and shares (automations): everything, edit, view, or nothing. */
export type SharedAccess = "owner" | "edit" | "view";
export interface ShareGrant {
  subjType: "user" | "team";
  subjId: string;
  role: "view" | "edit";
}

/** An owned object as the engine judges it: its owner, and for a shareable kind the shares that lend it. */
export type OwnedObject = { id: string; type: OwnedKind; owner: string; shares?: ShareGrant[] };

/** A group or an asset: what resolveObjects finds, in one id space. */
export type ResolvedObject =
  | { id: string; type: "group"; path: string; deleted: boolean; virtual?: boolean }
  | ({ type: "asset" } & AssetPlacing);

/** Anything the engine judges. */
export type JudgedObject = ResolvedObject | OwnedObject;

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

/** What each share role lends: a viewer reads, an editor also changes and runs; only the owner shares and deletes. */
const sharedRights: Record<ShareGrant["role"], Permission[]> = { view: ["read"], edit: ["read", "update"] };
const sharedRank: Record<SharedAccess, number> = { view: 1, edit: 2, owner: 3 };

/** The caller owns the object, or is an admin: the holders of every right on an owned object. */
export const ownsOrAdmin = (ctx: Pick<AccessContext, "userId" | "admin">, owner: string) => ctx.admin || owner === ctx.userId;

/**
 * An owned object's permissions: every right for its owner and admins; for anyone else what the best share naming
 * them (or one of their teams) lends, or null — nobody else may know the object exists. Sharing lends the object,
 * never the owner's rights: what a shared workflow does is still judged against its owner.
 */
export function ownedPermissions(ctx: Pick<AccessContext, "userId" | "admin" | "teams">, obj: Pick<OwnedObject, "owner" | "shares">) {
  if (ownsOrAdmin(ctx, obj.owner)) return [...allGrants];
  let best: ShareGrant["role"] | null = null;
  for (const s of obj.shares ?? []) {
    const mine = s.subjType === "user" ? s.subjId === ctx.userId : ctx.teams.includes(s.subjId);
    if (mine && (!best || sharedRank[s.role] > sharedRank[best])) best = s.role;
  }
  return best ? [...sharedRights[best]] : null;
}

/** The share level that permissions on a shared object amount to (owner ⊃ edit ⊃ view), null for none. */
export function sharedLevel(perms: Permission[] | null): SharedAccess | null {
  if (!perms) return null;
  if (perms.includes("superuser")) return "owner";
  return perms.includes("update") ? "edit" : "view";
}

/** The permission a share level stands for, to ask the guards for it. */
export const sharedNeed: Record<SharedAccess, Permission> = { view: "read", edit: "update", owner: "superuser" };

export function permissionsOn(ctx: AccessContext, obj: JudgedObject): Permission[] | null {
  if (obj.type === "asset") return assetPermissions(ctx, obj);
  if (obj.type !== "group") return ownedPermissions(ctx, obj);
  if (obj.virtual) return ctx.admin ? [...allGrants] : ["read"];
  return groupPermissions(ctx, obj.path);
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
 * The rights the caller would gain on `item` by placing it in the group at `toPath` (for a move, out of the group
 * at `fromPath` as well): requirePlacement in ./access.ts refuses any. A group is judged at its own level.
 */
export function placementGain(ctx: AccessContext, item: ResolvedObject, toPath: string, fromPath?: string): Permission[] {
  let before: Permission[] | null;
  let after: Permission[] | null;
  if (item.type === "group") {
    const newPath = `${toPath}${item.id}/`;
    before = groupPermissions(ctx, item.path);
    after = groupPermissions(rebased(ctx, item.path, newPath), newPath);
  } else {
    const kept = [...item.placements];
    const left = fromPath ? kept.indexOf(fromPath) : -1;
    if (left >= 0) kept.splice(left, 1);
    before = assetPermissions(ctx, item);
    after = assetPermissions(ctx, { ...item, placements: [...kept, toPath], placed: true });
  }
  const meaningful = item.type === "asset" ? assetRights : allGrants;
  return (after ?? []).filter((p) => meaningful.includes(p) && !(before ?? []).includes(p));
}

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
