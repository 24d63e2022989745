import { and, eq, sql } from "drizzle-orm";
import { groupMembers } from "../../db/schema";
import { deleteAssets, patchAsset } from "../assets/service";
import { variantBytesById } from "../assets/versions";
import { deleteMembers, moveMembers } from "../groups/members";
import { createGroup, deleteGroups, updateGroup } from "../groups/service";
import { VIRTUAL_ROOT_ID } from "../lib/access";
import { ApiError } from "../lib/errors";
import { driverFor, getStorage } from "../lib/storage";
import { createWithContent, sizedBody, writeContent } from "./content";
import { DavAnswer, conflict, notFound, requireIf, requireUnlocked, safePath, type DavRequest } from "./common";
import { dropLocks } from "./locks";
import { mimeFor } from "./mime";
import { copyProps, dropProps } from "./props";
import { childrenOf, containerId, locate, pathKey, type AssetNode, type Container, type DavNode, type GroupNode } from "./tree";

/** PUT, DELETE, MKCOL, COPY and MOVE, each through the services the API uses (so the same rights apply). */

export async function put(r: DavRequest, node: DavNode | null, parent: Container | null) {
  if (node && node.kind !== "asset")
    throw new DavAnswer(405, undefined, { Allow: "OPTIONS, GET, HEAD, PROPFIND, PROPPATCH, DELETE, MKCOL, COPY, MOVE, LOCK, UNLOCK" });
  if (!parent) throw conflict("Нет такой папки");
  if (parent.kind === "root") throw new ApiError("forbidden", "Файлы кладут в группу, а не в корень");
  await requireIf(r);
  await requireUnlocked(r, r, { parentToo: !node });
  const name = r.segs.at(-1)!;
  const { body, size } = await sizedBody(r.req);
  const mime = mimeFor(
    r.req.headers.get("Content-Type"),
    node?.kind === "asset" ? node.asset.name : name,
    node?.kind === "asset" ? node.asset.mime : undefined,
  );
  if (node) {
    await writeContent(r.db, r.env, r.auth, { assetId: node.asset.id, groupId: node.groupId, name: node.asset.name, mime }, body, size);
    return new Response(null, { status: 204 });
  }
  await createWithContent(r.db, r.env, r.auth, { groupId: parent.id, name, mime }, body, size);
  return new Response(null, { status: 201 });
}

/** Removes a node: a group (soft delete, as in the UI), an asset (or only this placement when it has others). */
async function remove(r: DavRequest, node: GroupNode | AssetNode) {
  if (node.kind === "group") {
    await deleteGroups(r.db, r.auth, [node.id]);
    await dropLocks(r.db, node);
  } else {
    const places = await r.db
      .select({ n: sql<number>`count(*)` })
      .from(groupMembers)
      .where(and(eq(groupMembers.elId, node.asset.id), eq(groupMembers.elType, "asset")))
      .get();
    if ((places?.n ?? 0) > 1) await deleteMembers(r.db, r.auth, node.groupId, [{ el_id: node.asset.id, el_type: "asset" }]);
    else {
      await deleteAssets(r.db, r.env, r.auth, [node.asset.id]);
      await dropProps(r.db, [node.asset.id]);
      // Only a deleted asset loses its locks: one removed from this group alone is still locked wherever it is.
      await dropLocks(r.db, node);
    }
  }
}

export async function del(r: DavRequest, node: DavNode | null, parent: Container | null) {
  if (!node) throw notFound();
  if (node.kind === "root") throw new DavAnswer(403);
  await requireIf(r);
  await requireUnlocked(r, { segs: r.segs, node, parent }, { below: true, parentToo: true });
  await remove(r, node);
  return new Response(null, { status: 204 });
}

export async function mkcol(r: DavRequest, node: DavNode | null, parent: Container | null) {
  // MKCOL with a body asks for something this server does not do (RFC 4918 section 9.3): 415, read no further.
  if (await hasBody(r.req)) throw new DavAnswer(415);
  if (node) throw new DavAnswer(405);
  if (!parent) throw conflict("Нет такой папки");
  await requireIf(r);
  await requireUnlocked(r, r, { parentToo: true });
  await createGroup(r.db, r.auth, { parent: containerId(parent), group_name: r.segs.at(-1)! });
  return new Response(null, { status: 201 });
}

/** Whether a request carries any body bytes (reads at most its first chunk; the drain takes the rest). */
async function hasBody(req: Request): Promise<boolean> {
  if (!req.body) return false;
  const reader = req.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    reader.releaseLock();
  }
}

/** COPY and MOVE (RFC 4918 sections 9.8, 9.9): Destination, Overwrite and Depth. */
export async function copyOrMove(r: DavRequest, node: DavNode | null, parent: Container | null, move: boolean) {
  if (!node) throw notFound();
  if (node.kind === "root") throw new DavAnswer(403);
  const destHeader = r.req.headers.get("Destination");
  if (!destHeader) throw new DavAnswer(400);
  const dest = safePath(destHeader);
  if (!dest) throw new DavAnswer(502);
  if (dest.length === 0 || pathKey(dest) === r.key) throw new DavAnswer(403);
  const depth = r.req.headers.get("Depth") ?? "infinity";
  if (move && node.kind === "group" && depth !== "infinity") throw new DavAnswer(400);
  if (!move && depth !== "0" && depth !== "infinity") throw new DavAnswer(400);
  const overwrite = (r.req.headers.get("Overwrite") ?? "T").toUpperCase() !== "F";
  const at = await locate(r.db, r.auth, dest);
  if (!at.parent) throw conflict("Нет папки назначения");
  await requireIf(r);
  if (move) await requireUnlocked(r, { segs: r.segs, node, parent }, { below: true, parentToo: true });
  await requireUnlocked(r, { segs: dest, node: at.node, parent: at.parent }, { below: true, parentToo: true });
  if (at.node && !overwrite) throw new DavAnswer(412);
  if (at.node?.kind === "root") throw new DavAnswer(403);
  if (at.node && pathKey(dest).startsWith(`${r.key}/`)) throw new DavAnswer(403);
  if (at.node) await remove(r, at.node);
  const name = dest.at(-1)!;
  if (move) await moveNode(r, node, at.parent, name);
  else await copyNode(r, node, at.parent, name, depth === "infinity");
  // A lock does not move with its object (RFC 4918 section 9.9.4).
  if (move) await dropLocks(r.db, node);
  return new Response(null, { status: at.node ? 204 : 201 });
}

async function parentIdOf(r: DavRequest, node: GroupNode | AssetNode): Promise<string> {
  if (node.kind === "asset") return node.groupId;
  const parent = await locate(r.db, r.auth, r.segs.slice(0, -1));
  return parent.node && parent.node.kind === "group" ? parent.node.id : VIRTUAL_ROOT_ID;
}

async function moveNode(r: DavRequest, node: GroupNode | AssetNode, to: Container, name: string) {
  const from = await parentIdOf(r, node);
  const toId = containerId(to);
  if (node.kind === "asset" && to.kind === "root") throw new ApiError("forbidden", "Файлы кладут в группу, а не в корень");
  const id = node.kind === "group" ? node.id : node.asset.id;
  if (from !== toId) await moveMembers(r.db, r.auth, from, toId, [{ el_id: id, el_type: node.kind }]);
  if (node.kind === "group" && name !== node.name) await updateGroup(r.db, r.auth, id, { group_name: name });
  if (node.kind === "asset" && name !== node.name && name !== node.asset.name) await patchAsset(r.db, r.auth, id, { asset_name: name });
}

async function copyNode(r: DavRequest, node: GroupNode | AssetNode, to: Container, name: string, deep: boolean): Promise<void> {
  if (node.kind === "asset") {
    if (to.kind === "root") throw new ApiError("forbidden", "Файлы кладут в группу, а не в корень");
    const src = node.asset;
    let body: ReadableStream | null = null;
    let size: number | null = null;
    if (src.var) {
      const v = await variantBytesById(r.db, r.auth, src.var);
      const obj = await (await driverFor(r.env, await getStorage(r.db, v.storageId))).get(v.objectKey);
      if (!obj) throw new ApiError("not_found", "Содержимое файла не найдено в хранилище");
      [body, size] = [obj.body, obj.size];
    }
    const id = await createWithContent(r.db, r.env, r.auth, { groupId: to.id, name, mime: src.mime }, body, size);
    await copyProps(r.db, src.id, id);
    return;
  }
  const { group_id } = await createGroup(r.db, r.auth, { parent: containerId(to), group_name: name });
  await copyProps(r.db, node.id, group_id);
  if (!deep) return;
  const copy: GroupNode = { kind: "group", id: group_id, name, ctime: 0, mtime: 0 };
  for (const c of await childrenOf(r.db, r.auth, node)) await copyNode(r, c, copy, c.name, true);
}
