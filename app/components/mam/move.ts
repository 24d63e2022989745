import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { ru } from "../../i18n/ru";
import type { DragPayload } from "./dnd";
import { chunks, moveMembers } from "./mam-api";
import { loadChildren, type Tree, type TreeNode, treeStore } from "./tree-store";

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

/**
 * The groups something in `from` can be moved to: those the tree has loaded, apart from `from` itself, the moved
 * groups and what lies under them (the server refuses a group moved into itself either way).
 */
export function moveTargets(tree: Tree, from: string, moving: ReadonlySet<string>) {
  const under = (id: string): boolean => {
    let node: TreeNode | undefined = tree[id];
    while (node) {
      if (moving.has(node.element_id)) return true;
      node = node.group_id ? tree[node.group_id] : undefined;
    }
    return false;
  };
  return Object.values(tree)
    .filter((n) => !n.isRoot && n.element_id !== from && !under(n.element_id))
    .map((n) => ({ value: n.element_id, label: n.group_name }));
}
