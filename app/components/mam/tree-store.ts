import { ApiError } from "../../lib/api";
import { runAction } from "../../lib/actions";
import { sessionStore } from "../../lib/session";
import { createStore } from "../../lib/store";
import { rememberOpen, type UserPrefs } from "../../lib/user-prefs";
import { ru } from "../../i18n/ru";
import { allSubgroups, getGroup, VIRTUAL_ROOT_ID } from "./mam-api";

/**
 * The group tree of the /mam screens: nodes by id with their parent (group_id), isRoot, isOpen and
 * subGroups (child ids; null until first expanded), the client-side group fields of the product
 * specification. Children load lazily when a node is first expanded (a click or a key: events), and the
 * screens' loaders open the path to the group they show (openTreeAt).
 */
export interface TreeNode {
  element_id: string;
  group_name: string;
  group_id: string | null;
  isRoot: boolean;
  isOpen: boolean;
  subGroups: string[] | null;
  loading: boolean;
}
export type Tree = Record<string, TreeNode>;

const rootNode = (): TreeNode => ({
  element_id: VIRTUAL_ROOT_ID,
  group_name: ru.mam.virtualRoot,
  group_id: null,
  isRoot: true,
  isOpen: false,
  subGroups: null,
  loading: false,
});

export const treeStore = createStore<Tree>({ [VIRTUAL_ROOT_ID]: rootNode() });

const patch = (id: string, changes: Partial<TreeNode>) => {
  const tree = treeStore.get();
  const node = tree[id];
  if (node) treeStore.set({ ...tree, [id]: { ...node, ...changes } });
};

/** Whose groups the tree holds: another user signed in in this tab starts from a fresh tree. */
let treeOwner: string | null = null;
/** Bumped with each fresh tree, so a load started for the previous one does not write into it. */
let generation = 0;

/**
 * Called by a /mam screen's loader once the sign-in check has run: the tree opens down to `groupId`. A fresh tree
 * also reopens the groups the user had open (their interface settings), and from then on keeps that list.
 */
export function openTreeAt(groupId: string, prefs?: Promise<UserPrefs>) {
  const userId = sessionStore.get().user?.id ?? null;
  if (userId !== treeOwner) {
    treeOwner = userId;
    generation += 1;
    inflight.clear();
    stopTracking?.();
    stopTracking = null;
    treeStore.set({ [VIRTUAL_ROOT_ID]: rootNode() });
    if (userId && prefs) void reopenSaved(prefs, generation);
  }
  if (userId) void reveal(groupId);
}

let stopTracking: (() => void) | null = null;

const openIds = (tree: Tree) =>
  Object.values(tree)
    .filter((n) => n.isOpen && !n.isRoot)
    .map((n) => n.element_id);

/** Opens the saved groups as their parents' children arrive, then remembers every change of what is open. */
async function reopenSaved(prefs: Promise<UserPrefs>, started: number) {
  const saved = new Set((await prefs).settings.tree_open ?? []);
  await expand(VIRTUAL_ROOT_ID);
  // Level by level: the saved groups whose parents' children have arrived open together.
  while (started === generation) {
    const ready = [...saved].filter((id) => treeStore.get()[id]);
    if (ready.length === 0) break;
    for (const id of ready) saved.delete(id);
    await Promise.all(ready.map((id) => expand(id)));
  }
  if (started !== generation) return;
  let last = openIds(treeStore.get()).join();
  stopTracking = treeStore.subscribe((tree) => {
    const open = openIds(tree);
    if (open.join() === last) return;
    last = open.join();
    rememberOpen(open);
  });
}

const inflight = new Map<string, Promise<void>>();

/** (Re)loads a node's children; keeps the open state of children that stay. */
export function loadChildren(id: string): Promise<void> {
  const running = inflight.get(id);
  if (running) return running;
  patch(id, { loading: true });
  const started = generation;
  const job = (async () => {
    const children = await runAction(() => allSubgroups(id));
    const tree = { ...treeStore.get() };
    if (!tree[id] || started !== generation) return;
    if (!children) {
      tree[id] = { ...tree[id], loading: false };
    } else {
      for (const child of children) {
        const old = tree[child.el_id];
        tree[child.el_id] = old
          ? { ...old, group_name: child.el_info.name, group_id: id }
          : {
              element_id: child.el_id,
              group_name: child.el_info.name,
              group_id: id,
              isRoot: false,
              isOpen: false,
              subGroups: null,
              loading: false,
            };
      }
      tree[id] = { ...tree[id], loading: false, subGroups: children.map((c) => c.el_id) };
    }
    treeStore.set(tree);
  })().finally(() => inflight.delete(id));
  inflight.set(id, job);
  return job;
}

export async function expand(id: string) {
  patch(id, { isOpen: true });
  if (treeStore.get()[id]?.subGroups === null) await loadChildren(id);
}

export function toggle(id: string) {
  const node = treeStore.get()[id];
  if (!node) return;
  if (node.isOpen) patch(id, { isOpen: false });
  else void expand(id);
}

/**
 * Opens the path from the virtual root down to a group (a reload or a pasted /mam/{idGroup} link).
 * Parents are asked for one by one until one is unreadable or a root: that one hangs off the virtual root.
 */
export async function reveal(id: string) {
  const chain: string[] = [];
  let current: string = id;
  while (!treeStore.get()[current] && chain.length < 64) {
    try {
      const group = await getGroup(current);
      chain.unshift(current);
      current = group.parent_id ?? VIRTUAL_ROOT_ID;
    } catch (error) {
      // The group itself is unreadable: the contents pane says so. An unreadable parent: the last
      // readable group is one of the caller's tops, a child of the virtual root.
      if (current === id || !(error instanceof ApiError)) return;
      current = VIRTUAL_ROOT_ID;
    }
  }
  const known = [
    ...ancestors(treeStore.get(), current)
      .reverse()
      .map((n) => n.element_id),
    current,
  ];
  // The ancestors open; the group itself keeps its own state (its chevron), but the virtual root is always open.
  for (const step of [...known, ...chain].filter((x) => x !== id || x === VIRTUAL_ROOT_ID)) await expand(step);
}

/** Drops a node after a delete or a move away, and reloads the parent's children. */
export async function refreshParentOf(id: string) {
  const parent = treeStore.get()[id]?.group_id;
  if (parent) await loadChildren(parent);
}

export function renameNode(id: string, name: string) {
  patch(id, { group_name: name });
}

/** The node's ancestors, nearest first (for breadcrumbs). */
export function ancestors(tree: Tree, id: string): TreeNode[] {
  const out: TreeNode[] = [];
  let node = tree[id];
  while (node?.group_id && out.length < 64) {
    node = tree[node.group_id];
    if (node) out.push(node);
  }
  return out;
}
