import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { ru } from "../../i18n/ru";
import type { DragPayload } from "./dnd";
import { chunks, moveMembers } from "./mam-api";
import { loadChildren, treeStore } from "./tree-store";

/** Reloads the children of the groups the tree has already loaded. */
export async function refreshTree(ids: string[]) {
  const tree = treeStore.get();
  await Promise.all([...new Set(ids)].filter((id) => tree[id]?.subGroups).map((id) => loadChildren(id)));
}

/**
 * Moves dropped members into a group; the server checks the permission on both ends. The tree reloads the
 * children of both ends; the caller reloads the route's data (the open group's contents may have changed).
 */
export async function moveDropped(payload: DragPayload, to: string): Promise<boolean> {
  const members = payload.members.filter((m) => m.el_id !== to);
  if (payload.from === to || members.length === 0) return false;
  const done = await runAction(async () => {
    for (const part of chunks(members)) await moveMembers(payload.from, to, part);
    return true;
  });
  await refreshTree([payload.from, to]);
  if (done) showInfo(ru.mam.moved);
  return !!done;
}
