import { ActionIcon, Box, Group, Loader, Text, UnstyledButton } from "@mantine/core";
import { Link, useNavigate, useRevalidator } from "@remix-run/react";
import { useRef, useState, type DragEvent, type KeyboardEvent } from "react";
import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { carriesMembers, readDrag, startDrag } from "./dnd";
import { VIRTUAL_ROOT_ID } from "./mam-api";
import { TreeActions } from "./TreeActions";
import { expand, toggle, treeStore, type Tree, type TreeNode } from "./tree-store";
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

/** A row of the tree as shown: its place among its siblings and its depth, for the ARIA attributes and the keys. */
interface Visible {
  node: TreeNode;
  depth: number;
  position: number;
  siblings: number;
}

/** The rows in view, top to bottom: the virtual root, then the children of every open node whose children have loaded. */
function visibleRows(tree: Tree): Visible[] {
  const out: Visible[] = [];
  const walk = (id: string, depth: number, position: number, siblings: number) => {
    const node = tree[id];
    if (!node) return;
    out.push({ node, depth, position, siblings });
    if (!node.isOpen || !node.subGroups) return;
    const children = node.subGroups;
    for (const [i, child] of children.entries()) walk(child, depth + 1, i + 1, children.length);
  };
  walk(VIRTUAL_ROOT_ID, 0, 1, 1);
  return out;
}

const isLeaf = (node: TreeNode) => node.subGroups !== null && node.subGroups.length === 0;

interface RowProps {
  row: Visible;
  selected: boolean;
  /** The one row reachable with Tab (roving tabindex); the others are reached with the arrow keys. */
  tabbable: boolean;
  onFocus: () => void;
}

function TreeRow({ row, selected, tabbable, onFocus }: RowProps) {
  const { node, depth } = row;
  const [dropping, setDropping] = useState(false);
  const { revalidate } = useRevalidator();
  const leaf = isLeaf(node);
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
    void moveDropped(payload, node.element_id).then(() => revalidate());
  };
  return (
    <Group
      gap={4}
      wrap="nowrap"
      pl={depth * 14}
      role="treeitem"
      aria-label={node.group_name}
      aria-expanded={leaf ? undefined : node.isOpen}
      aria-selected={selected}
      aria-level={depth + 1}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-busy={node.loading || undefined}
      tabIndex={tabbable ? 0 : -1}
      onFocus={(event) => event.target === event.currentTarget && onFocus()}
      data-group-id={node.element_id}
      draggable={!node.isRoot}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
      style={{
        borderRadius: 4,
        background: selected ? "var(--mantine-color-dark-5)" : dropping ? "var(--mantine-color-blue-9)" : undefined,
      }}
    >
      <ActionIcon
        size="sm"
        variant="subtle"
        color="gray"
        tabIndex={-1}
        onClick={() => toggle(node.element_id)}
        aria-label={node.isOpen ? ru.mam.collapse : ru.mam.expand}
        style={{ visibility: leaf ? "hidden" : undefined }}
      >
        {node.loading ? <Loader size={10} /> : <Chevron open={node.isOpen} />}
      </ActionIcon>
      <UnstyledButton component={Link} to={groupHref(node.element_id)} tabIndex={-1} style={{ flex: 1, minWidth: 0 }} py={3}>
        <Text size="sm" truncate fw={node.isRoot ? 600 : undefined}>
          {node.group_name}
        </Text>
      </UnstyledButton>
      <TreeActions node={node} tabbable={tabbable} />
    </Group>
  );
}

function Branch({
  id,
  rows,
  ...rest
}: {
  id: string;
  rows: Map<string, Visible>;
  selected: string;
  active: string;
  focus: (id: string) => void;
}) {
  const row = rows.get(id);
  if (!row) return null;
  const { node, depth } = row;
  return (
    <>
      <TreeRow row={row} selected={rest.selected === id} tabbable={rest.active === id} onFocus={() => rest.focus(id)} />
      {node.isOpen && node.subGroups && (
        // biome-ignore lint/a11y/useSemanticElements: an ARIA tree nests its items in role="group", not a fieldset
        <div role="group">
          {node.subGroups.length === 0 && depth === 0 && (
            <Text size="xs" c="dimmed" pl={36}>
              {ru.mam.noGroups}
            </Text>
          )}
          {node.subGroups.map((child) => (
            <Branch key={child} id={child} rows={rows} {...rest} />
          ))}
        </div>
      )}
    </>
  );
}

/**
 * The group tree of the left pane: the virtual root and its lazily expanded children, an ARIA tree (the
 * WAI-ARIA tree view pattern). One row at a time is in the tab order (roving tabindex: the last focused
 * row, else the open group); Up/Down move between the rows in view, Right opens a row (loading its
 * children) or goes to its first child, Left closes it or goes to its parent, Home/End go to the first and
 * last row, Enter opens the group in the right pane. The keys act on the row itself, not on its buttons.
 */
export function GroupTree({ selected }: { selected: string }) {
  const tree = useStore(treeStore);
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState<string | null>(null);
  const rows = visibleRows(tree);
  const byId = new Map(rows.map((r) => [r.node.element_id, r]));
  const active = focused && byId.has(focused) ? focused : byId.has(selected) ? selected : VIRTUAL_ROOT_ID;

  const focus = (id: string | undefined) => {
    if (!id) return;
    setFocused(id);
    box.current?.querySelector<HTMLElement>(`[role="treeitem"][data-group-id="${id}"]`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.getAttribute("role") !== "treeitem") return;
    const id = target.dataset.groupId ?? "";
    const at = rows.findIndex((r) => r.node.element_id === id);
    const row = rows[at];
    if (!row) return;
    const { node } = row;
    const keys: Record<string, () => void> = {
      ArrowDown: () => focus(rows[at + 1]?.node.element_id),
      ArrowUp: () => focus(rows[at - 1]?.node.element_id),
      Home: () => focus(rows[0]?.node.element_id),
      End: () => focus(rows[rows.length - 1]?.node.element_id),
      ArrowRight: () => {
        if (isLeaf(node)) return;
        if (!node.isOpen) void expand(node.element_id);
        else focus(node.subGroups?.[0]);
      },
      ArrowLeft: () => {
        if (node.isOpen && !isLeaf(node)) toggle(node.element_id);
        else focus(node.group_id ?? undefined);
      },
      Enter: () => navigate(groupHref(node.element_id)),
    };
    const act = keys[event.key];
    if (!act) return;
    event.preventDefault();
    act();
  };

  return (
    <Box ref={box} role="tree" aria-label={ru.mam.tree} onKeyDown={onKeyDown}>
      <Branch id={VIRTUAL_ROOT_ID} rows={byId} selected={selected} active={active} focus={focus} />
    </Box>
  );
}
