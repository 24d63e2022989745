import { ActionIcon, Box, Group, Loader, Text, UnstyledButton } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useState, type DragEvent } from "react";
import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { carriesMembers, readDrag, startDrag } from "./dnd";
import { VIRTUAL_ROOT_ID } from "./mam-api";
import { TreeActions } from "./TreeActions";
import { toggle, treeStore, type TreeNode } from "./tree-store";
import { moveDropped } from "./move";

export const groupHref = (id: string) => (id === VIRTUAL_ROOT_ID ? "/mam" : `/mam/${id}`);

const Chevron = ({ open }: { open: boolean }) => (
  <svg
    width={12}
    height={12}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2.5}
    aria-hidden="true"
    style={{ transform: open ? "rotate(90deg)" : undefined, transition: "transform 120ms" }}
  >
    <path d="M9 6l6 6-6 6" />
  </svg>
);

function TreeRow({ node, depth, selected }: { node: TreeNode; depth: number; selected: string }) {
  const [dropping, setDropping] = useState(false);
  const leaf = node.subGroups !== null && node.subGroups.length === 0;
  const onDragStart = (event: DragEvent) => {
    if (node.isRoot || !node.group_id) return event.preventDefault();
    startDrag(event, { from: node.group_id, members: [{ el_id: node.element_id, el_type: "group" }] });
  };
  const onDragOver = (event: DragEvent) => {
    if (!carriesMembers(event) || node.isRoot) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    setDropping(true);
  };
  const onDrop = (event: DragEvent) => {
    setDropping(false);
    const payload = readDrag(event);
    if (!payload || node.isRoot) return;
    event.preventDefault();
    void moveDropped(payload, node.element_id);
  };
  return (
    <Group
      gap={4}
      wrap="nowrap"
      pl={depth * 14}
      role="treeitem"
      aria-expanded={leaf ? undefined : node.isOpen}
      aria-selected={selected === node.element_id}
      aria-level={depth + 1}
      data-group-id={node.element_id}
      draggable={!node.isRoot}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
      style={{
        borderRadius: 4,
        background: selected === node.element_id ? "var(--mantine-color-dark-5)" : dropping ? "var(--mantine-color-blue-9)" : undefined,
      }}
    >
      <ActionIcon
        size="sm"
        variant="subtle"
        color="gray"
        onClick={() => toggle(node.element_id)}
        aria-label={node.isOpen ? ru.mam.collapse : ru.mam.expand}
        style={{ visibility: leaf ? "hidden" : undefined }}
      >
        {node.loading ? <Loader size={10} /> : <Chevron open={node.isOpen} />}
      </ActionIcon>
      <UnstyledButton component={Link} to={groupHref(node.element_id)} style={{ flex: 1, minWidth: 0 }} py={3}>
        <Text size="sm" truncate fw={node.isRoot ? 600 : undefined}>
          {node.group_name}
        </Text>
      </UnstyledButton>
      <TreeActions node={node} />
    </Group>
  );
}

function Branch({ id, depth, selected }: { id: string; depth: number; selected: string }) {
  const tree = useStore(treeStore);
  const node = tree[id];
  if (!node) return null;
  return (
    <>
      <TreeRow node={node} depth={depth} selected={selected} />
      {node.isOpen && node.subGroups && (
        // biome-ignore lint/a11y/useSemanticElements: an ARIA tree nests its items in role="group", not a fieldset
        <div role="group">
          {node.subGroups.length === 0 && depth === 0 && (
            <Text size="xs" c="dimmed" pl={36}>
              {ru.mam.noGroups}
            </Text>
          )}
          {node.subGroups.map((child) => (
            <Branch key={child} id={child} depth={depth + 1} selected={selected} />
          ))}
        </div>
      )}
    </>
  );
}

/** The group tree of the left pane: the virtual root and its lazily expanded children. */
export function GroupTree({ selected }: { selected: string }) {
  return (
    <Box role="tree" aria-label={ru.mam.tree}>
      <Branch id={VIRTUAL_ROOT_ID} depth={0} selected={selected} />
    </Box>
  );
}
