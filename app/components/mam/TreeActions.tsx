import { ActionIcon, Menu } from "@mantine/core";
import { useNavigate, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction, runCriticalAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { useStore } from "../../lib/store";
import { prefsStore, toggleBookmark } from "../../lib/user-prefs";
import { ConfirmModal, MoveModal, NameModal } from "./dialogs";
import { useMountDisk } from "./MountDisk";
import { createGroup, deleteGroup, entityAccess, renameGroup, userAbilities, VIRTUAL_ROOT_ID } from "./mam-api";
import { moveDropped, moveTargets, refreshTree } from "./move";
import { expand, renameNode, treeStore, type TreeNode } from "./tree-store";

const Dots = () => (
  <svg width={14} height={14} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <circle cx="5" cy="12" r="2" />
    <circle cx="12" cy="12" r="2" />
    <circle cx="19" cy="12" r="2" />
  </svg>
);

/** What the caller may do here: the virtual root takes top-level groups from admins only. */
async function permissionsOn(id: string): Promise<string[]> {
  if (id === VIRTUAL_ROOT_ID) return (await userAbilities()).is_admin ? ["create"] : [];
  return (await entityAccess(id)).acl;
}

/**
 * The per-group menu of the tree: create a subgroup, rename, delete, as the access engine allows (asked when
 * the menu opens). Only the row in the tab order has its menu button in it too.
 */
export function TreeActions({ node, tabbable }: { node: TreeNode; tabbable: boolean }) {
  const id = node.element_id;
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const [acl, setAcl] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<"create" | "rename" | "move" | "delete" | null>(null);
  const tree = useStore(treeStore);
  // The server's acl is complete (superuser already expanded): read, not re-derived.
  const can = (perm: string) => !!acl && acl.includes(perm);
  const disk = useMountDisk();

  const onOpen = async () => setAcl((await runAction(() => permissionsOn(id))) ?? []);
  const bookmarked = useStore(prefsStore).bookmarks.some((b) => b.group_id === id);
  const bookmark = async () => {
    if (await toggleBookmark(id)) showInfo(bookmarked ? ru.mam.unbookmarked : ru.mam.bookmarked);
  };

  // Create and rename throw a refusal to their dialog, which shows it under the name or in the toast.
  const create = async (name: string) => {
    const { group_id } = await createGroup(id, name);
    await refreshTree([id]);
    await expand(id);
    showInfo(ru.mam.created);
    navigate(`/mam/${group_id}`);
  };
  const rename = async (name: string) => {
    await renameGroup(id, name);
    renameNode(id, name);
    revalidate();
    showInfo(ru.mam.renamed);
  };
  const move = async (target: string) => {
    const from = node.group_id ?? VIRTUAL_ROOT_ID;
    if (await moveDropped({ from, members: [{ el_id: id, el_type: "group" }] }, target)) {
      setDialog(null);
      revalidate();
    }
  };
  const remove = async () => {
    const parent = treeStore.get()[id]?.group_id ?? VIRTUAL_ROOT_ID;
    await runCriticalAction(() => deleteGroup(id));
    await refreshTree([parent]);
    showInfo(ru.mam.deleted);
    navigate(parent === VIRTUAL_ROOT_ID ? "/mam" : `/mam/${parent}`);
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal onOpen={onOpen}>
        <Menu.Target>
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            tabIndex={tabbable ? 0 : -1}
            aria-label={`${ru.mam.actions} ${node.group_name}`}
          >
            <Dots />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {acl === null && <Menu.Label>{ru.mam.loading}</Menu.Label>}
          {acl !== null && node.isRoot && !can("create") && <Menu.Label>{ru.mam.noPermission}</Menu.Label>}
          {!node.isRoot && can("read") && (
            <Menu.Item onClick={bookmark}>{bookmarked ? ru.mam.bookmarkRemove : ru.mam.bookmarkAdd}</Menu.Item>
          )}
          {!node.isRoot && can("read") && <Menu.Item onClick={() => disk.mount(id, node.group_name)}>{ru.disk.mount}</Menu.Item>}
          {can("create") && <Menu.Item onClick={() => setDialog("create")}>{ru.mam.create}</Menu.Item>}
          {!node.isRoot && can("update") && <Menu.Item onClick={() => setDialog("rename")}>{ru.mam.rename}</Menu.Item>}
          {!node.isRoot && can("group") && <Menu.Item onClick={() => setDialog("move")}>{ru.mam.moveTo}</Menu.Item>}
          {!node.isRoot && can("delete") && (
            <Menu.Item color="red" onClick={() => setDialog("delete")}>
              {ru.mam.delete}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {disk.dialog}
      <NameModal opened={dialog === "create"} title={ru.mam.create} initial="" onSubmit={create} onClose={() => setDialog(null)} />
      <NameModal
        opened={dialog === "rename"}
        title={ru.mam.rename}
        initial={node.group_name}
        onSubmit={rename}
        onClose={() => setDialog(null)}
      />
      {dialog === "move" && (
        <MoveModal
          opened
          targets={moveTargets(tree, node.group_id ?? VIRTUAL_ROOT_ID, new Set([id]))}
          onMove={move}
          onClose={() => setDialog(null)}
        />
      )}
      <ConfirmModal
        opened={dialog === "delete"}
        text={ru.mam.confirmDeleteGroup(node.group_name)}
        confirmLabel={ru.mam.delete}
        onConfirm={remove}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
