import { eq } from "drizzle-orm";
import { assets, groups } from "../../db/schema";
import { accessContext, type AccessContext } from "./access-context";
import { findObjects, type OwnedRow, resolveObjects, resolveOwned } from "./access-objects";
import {
  guestPermissions,
  type GuestGrant,
  type OwnedKind,
  ownedPermissions,
  type JudgedObject,
  permissionsOn,
  placementGain,
  type ResolvedObject,
  type ShareGrant,
  type SharedAccess,
  sharedLevel,
} from "./access-rules";
import type { Db } from "./db";
import type { RawStatement } from "./sql";
import type { AuthUser } from "./env";
import { ApiError } from "./errors";
import type { Permission } from "../../shared/lib/permissions";

/**
 * The permission engine: the one place that answers "may this caller do P on these ids" and "which rows may it
 * read". Semantics: docs/decisions/003-permission-engine.md; owned objects (uploads, orders, workflows, one's own
 * account, WebDAV locks): docs/decisions/064-owned-objects-in-the-engine.md. This file holds the guards; the
 * caller's context is loaded in ./access-context.ts, objects are found in ./access-objects.ts, and judged (no DB)
 * in ./access-rules.ts. SQL filters for list queries live in ./access-sql.ts and use the same AccessContext.
 */

export { VIRTUAL_ROOT_ID, VIRTUAL_ROOT_NAME } from "../../shared/lib/constants";
export { type AccessContext, accessContext, type ContextRows, contextStatements, primeAccessContext } from "./access-context";
export { placedAnywhere, resolveObjects, type OwnedRow } from "./access-objects";
export {
  allGrants,
  assetPermissions,
  assetRights,
  type AssetPlacing,
  type GuestGrant,
  guestPermissions,
  groupPermissions,
  type OwnedKind,
  ownsOrAdmin,
  permissionsOn,
  type ResolvedObject,
  type SharedAccess,
  type ShareGrant,
  sharedLevel,
  sharedNeed,
} from "./access-rules";

export const notFound = (message = "Объект не найден") => new ApiError("not_found", message);

type RequireOptions = {
  deleted?: boolean;
  /** The not_found message (for a missing object and for one the caller may not see alike). */
  notFound?: string;
  /** The forbidden message, when the resource words it better than the generic one. */
  forbidden?: string;
  types?: JudgedObject["type"][];
};

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

/**
 * requireAccess for objects a user owns (`kind`: an upload, order, workflow, account or WebDAV lock): anyone who
 * neither owns it nor holds a share of it gets not_found, as for a missing one; admins hold every right. Returns
 * each object's row and the caller's permissions on it, in the order of `ids`.
 */
export async function requireOwned<K extends OwnedKind>(
  db: Db,
  auth: AuthUser,
  permission: Permission,
  kind: K,
  ids: string[],
  opts: Omit<RequireOptions, "deleted" | "types"> = {},
): Promise<{ row: OwnedRow<K>; permissions: Permission[] }[]> {
  const [ctx, found] = await Promise.all([accessContext(db, auth), resolveOwned(db, kind, ids)]);
  const objects = new Map<string, JudgedObject>([...found].map(([id, f]) => [id, f.object]));
  checked(ctx, permission, ids, objects, opts);
  return ids.map((id) => ({ row: found.get(id)!.row, permissions: permissionsOn(ctx, found.get(id)!.object)! }));
}

function checked<O extends JudgedObject>(
  ctx: AccessContext,
  permission: Permission,
  ids: string[],
  objects: Map<string, O>,
  opts: RequireOptions,
) {
  let lacking: string | undefined;
  for (const id of ids) {
    const obj = objects.get(id);
    if (!obj || (opts.types && !opts.types.includes(obj.type))) throw notFound(opts.notFound);
    const perms = permissionsOn(ctx, obj);
    if (!perms) throw notFound(opts.notFound);
    if (permission !== "read" && !perms.includes(permission)) lacking ??= id;
  }
  // Every id is checked for visibility before any forbidden, so 403 never confirms a hidden id.
  if (lacking) throw new ApiError("forbidden", opts.forbidden ?? `Недостаточно прав: нужно право «${permission}»`);
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

/**
 * Placing never widens (docs/decisions/024-placing-rights-transcoder-quota.md): putting `items` into the
 * group `to` (for a move, out of `from` as well) is refused when the caller would then hold a right on an
 * item that it lacks now. Rights follow the place, so without this `group` on a folder one manages would
 * turn `read` on someone else's file into `superuser` on it. `superuser` on the item (as a group manager
 * has on everything below their group) always passes, and so does re-filing between places that give the
 * caller the same rights. A group is judged at its own level (placementGain in ./access-rules.ts). Visibility
 * of the items and rights on the groups are requireAccess's part.
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
  const widened: { id: string; type: "asset" | "group"; extra: Permission[] }[] = [];
  for (const item of items) {
    const obj = objects.get(item.id);
    if (!obj || obj.type !== item.type) throw notFound();
    const extra = placementGain(ctx, obj, pathOf(to), from ? pathOf(from) : undefined);
    if (extra.length) widened.push({ id: obj.id, type: item.type, extra });
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

/**
 * The caller's share level on an object owned by `owner` and shared by `shares`, for lists whose rows are already
 * read (requireOwned guards a single one): ownedPermissions in ./access-rules.ts decides.
 */
export async function sharedAccess(db: Db, auth: AuthUser, owner: string, shares: ShareGrant[]): Promise<SharedAccess | null> {
  // Without shares only ownership counts, which needs no context (and so no round trip for an unprimed caller).
  const ctx = shares.length ? await accessContext(db, auth) : { userId: auth.userId, admin: auth.isAdmin, teams: [] };
  return sharedLevel(ownedPermissions(ctx, { owner, shares }));
}

/** As entityAccess for users: anything outside the guest's grant is not found, like an asset they cannot see. */
export function requireGuestAccess(grant: GuestGrant, assetId: string, version: number): Permission[] {
  const perms = guestPermissions(grant, assetId, version);
  if (!perms) throw notFound();
  return perms;
}
