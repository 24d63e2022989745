import { and, eq, inArray, isNull } from "drizzle-orm";
import { groups } from "../../db/schema";
import { accessContext, groupPermissions, requireAccess, VIRTUAL_ROOT_ID } from "../lib/access";
import { idList } from "../lib/sql";
import type { Db } from "../lib/db";
import type { AuthUser } from "../lib/env";
import { assetByName, type AssetEntry } from "../groups/asset-members";
import { nameKey } from "../groups/common";
import { aclRoots, memberEntries } from "../groups/tree";
import type { MembersQuery } from "../../shared/groups/schemas";

/**
 * The tree a WebDAV client sees: the caller's top-most readable groups (acl-roots) at /dav/, groups as
 * collections, assets as files (their latest version's original). Every step reads through the access
 * engine (aclRoots, memberEntries and requireAccess), so a group the caller cannot read has no path.
 *
 * One path per file: assets may share a name in a group, so the oldest placement keeps the name and each
 * later one (or one named like a subgroup) shows as "name (id8).ext", the first 8 characters of its id.
 */

export type GroupNode = { kind: "group"; id: string; name: string; ctime: number; mtime: number };
export type AssetNode = { kind: "asset"; name: string; groupId: string; asset: AssetEntry };
export type DavNode = { kind: "root" } | GroupNode | AssetNode;
export type Container = { kind: "root" } | GroupNode;

export const ROOT: DavNode = { kind: "root" };
export const containerId = (c: Container) => (c.kind === "root" ? VIRTUAL_ROOT_ID : c.id);

const suffixed = (name: string, id: string) => {
  const dot = name.lastIndexOf(".");
  const tag = ` (${id.slice(0, 8)})`;
  return dot > 0 ? `${name.slice(0, dot)}${tag}${name.slice(dot)}` : `${name}${tag}`;
};
const suffixRe = / \(([0-9a-f]{8})\)(\.[^.]*)?$/;

const allMembers = (): MembersQuery => ({ type: "all", skip: 0, take: 1_000_000, order: "asc" }) as MembersQuery;

/** The children of a collection with their WebDAV names (read checked by the engine). */
export async function childrenOf(db: Db, auth: AuthUser, c: Container): Promise<(GroupNode | AssetNode)[]> {
  if (c.kind === "root") {
    return (await aclRoots(db, auth)).map((g) => ({ kind: "group", id: g.group_id, name: g.group_name, ctime: g.ctime, mtime: g.mtime }));
  }
  const entries = await memberEntries(db, auth, c.id, allMembers());
  const taken = new Set<string>();
  const out: (GroupNode | AssetNode)[] = [];
  for (const e of entries) {
    if (e.type === "group") {
      taken.add(nameKey(e.group.group_name));
      out.push({ kind: "group", id: e.group.group_id, name: e.group.group_name, ctime: e.group.ctime, mtime: e.group.mtime });
    }
  }
  for (const e of entries) {
    if (e.type !== "asset") continue;
    const key = nameKey(e.asset.name);
    const name = taken.has(key) ? suffixed(e.asset.name, e.asset.id) : e.asset.name;
    taken.add(key);
    out.push({ kind: "asset", name, groupId: c.id, asset: e.asset });
  }
  return out;
}

/** One child of a collection by its WebDAV name, or null. */
export async function childNamed(db: Db, auth: AuthUser, c: Container, name: string): Promise<GroupNode | AssetNode | null> {
  if (c.kind === "root") return (await childrenOf(db, auth, c)).find((n) => nameKey(n.name) === nameKey(name)) ?? null;
  const sub = await db
    .select({ id: groups.groupId, name: groups.groupName, ctime: groups.ctime, mtime: groups.mtime })
    .from(groups)
    .where(and(eq(groups.parentId, c.id), eq(groups.nameKey, nameKey(name)), isNull(groups.deletedAt)))
    .get();
  if (sub) {
    await requireAccess(db, auth, "read", [sub.id], { types: ["group"] });
    return { kind: "group", ...sub };
  }
  if (suffixRe.test(name)) return (await childrenOf(db, auth, c)).find((n) => n.name === name) ?? null;
  const asset = await assetByName(db, await accessContext(db, auth), c.id, name);
  return asset ? { kind: "asset", name: asset.name, groupId: c.id, asset } : null;
}

/** "/dav/a/b/" -> ["a", "b"] (percent-decoded); null for a path outside /dav/ or with "." / ".." segments. */
export function davSegments(pathname: string): string[] | null {
  if (pathname !== "/dav" && !pathname.startsWith("/dav/")) return null;
  const parts = pathname.slice(4).split("/").filter(Boolean);
  try {
    const segs = parts.map((p) => decodeURIComponent(p));
    return segs.some((s) => s === "." || s === ".." || s.includes("/")) ? null : segs;
  } catch {
    return null;
  }
}

export interface Located {
  node: DavNode | null;
  /** The collection that holds (or would hold) the last segment; null when a middle segment is missing. */
  parent: Container | null;
  /** A middle segment is a file, not a collection. */
  throughFile?: boolean;
  /** The objects along the path, one per segment found (where a lock's root shows in this caller's tree). */
  chain: (GroupNode | AssetNode)[];
}

/** Walks the segments from the caller's root. */
export async function locate(db: Db, auth: AuthUser, segs: string[]): Promise<Located> {
  let current: Container = { kind: "root" };
  const chain: (GroupNode | AssetNode)[] = [];
  for (let i = 0; i < segs.length; i++) {
    const next = await childNamed(db, auth, current, segs[i]);
    if (next) chain.push(next);
    if (i === segs.length - 1) return { node: next, parent: current, chain };
    if (!next) return { node: null, parent: null, chain };
    if (next.kind === "asset") return { node: null, parent: null, throughFile: true, chain };
    current = next;
  }
  return { node: ROOT, parent: null, chain };
}

/** A path as names compare (case-folded segments): for telling whether two paths in one caller's tree are the same. */
export const pathKey = (segs: string[]) => `/${segs.map(nameKey).join("/")}`;

export const hrefOf = (segs: string[], collection: boolean) =>
  `/dav/${segs.map((s) => encodeURIComponent(s)).join("/")}${collection && segs.length ? "/" : ""}`;

/**
 * Where a group is in the caller's WebDAV tree: the names from its top-most readable ancestor (one of the
 * caller's acl-roots) down to it. For the disk helper, which mounts a group by its WebDAV address.
 */
export async function davPathOf(db: Db, auth: AuthUser, groupId: string): Promise<string[]> {
  const obj = (await requireAccess(db, auth, "read", [groupId], { types: ["group"], notFound: "Группа не найдена" })).get(groupId)!;
  if (obj.type !== "group" || obj.virtual) return [];
  const ids = obj.path.split("/").filter(Boolean);
  const rows = await db
    .select({ id: groups.groupId, name: groups.groupName, path: groups.path })
    .from(groups)
    .where(inArray(groups.groupId, idList(ids)));
  const ctx = await accessContext(db, auth);
  const chain = ids.map((id) => rows.find((r) => r.id === id)!);
  const top = chain.findIndex((g) => groupPermissions(ctx, g.path));
  return chain.slice(top).map((g) => g.name);
}
