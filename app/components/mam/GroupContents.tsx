import { MountDiskButton } from "./MountDisk";
import { Checkbox, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useState, type DragEvent } from "react";
import { ContentsViewControls, type View } from "./ContentsViewControls";
import { useContentsSort } from "./use-contents-sort";
import { useSelection } from "./use-selection";
import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { prefsStore } from "../../lib/user-prefs";
import { CsvActions } from "../metadata/CsvActions";
import { ContentsFilter } from "./ContentsFilter";
import { UploadDropzone } from "../uploads/UploadDropzone";
import { GRID_CELL, GridCell, LIST_ROW_HEIGHT, ListHeader, ListRow } from "./ContentsItem";
import type { Contents } from "./contents";
import { startDrag } from "./dnd";
import { VIRTUAL_ROOT_ID, type Member } from "./mam-api";
import { rememberOrder } from "./nav-list";
import { SelectionBar } from "./SelectionBar";
import { treeStore } from "./tree-store";
import { useMembers } from "./use-members";
import { VirtualRows } from "./VirtualRows";

/** Items within this many of the end of what is loaded: fetch the next page. */
const PREFETCH_ROWS = 10;

/**
 * The open group's contents: subgroups and files in a list or a grid, in the order the server sorts them
 * (the sort is in the address), the first page from the route's loader and the next ones while scrolling,
 * windowed (VirtualRows), so a group of 100,000 keeps a few dozen rows in the DOM. A change made here
 * (move, delete, upload) loads the route's data again.
 */
export function GroupContents({ data }: { data: Contents }) {
  const { groupId, group } = data;
  const node = useStore(treeStore)[groupId];
  const { sortKey, sortDir, setSort } = useContentsSort();
  const { revalidate } = useRevalidator();
  const { settings } = useStore(prefsStore);
  const view: View = settings.mam_view ?? "list";
  const { items, done, loading, previews, loadMore } = useMembers(data);
  const { selected, select, selectAll } = useSelection(data);
  const [width, setWidth] = useState(800);

  useEffect(
    () =>
      rememberOrder(
        groupId,
        items.filter((m) => m.el_type === "asset").map((m) => m.el_id),
      ),
    [groupId, items],
  );
  const columns = view === "grid" ? Math.max(1, Math.floor(width / GRID_CELL.width)) : 1;
  const rowCount = Math.ceil(items.length / columns);

  // Called by the list when the rows in view change (a scroll, a resize, rows added): near the end, the next page.
  const onVisibleEnd = useCallback(
    (lastRow: number) => {
      if (!done && lastRow >= rowCount - Math.ceil(PREFETCH_ROWS / columns)) void loadMore();
    },
    [done, rowCount, columns, loadMore],
  );

  const title = groupId === VIRTUAL_ROOT_ID ? ru.mam.virtualRoot : (node?.group_name ?? group?.group_name ?? "");
  const hrefOf = (m: Member) => (m.el_type === "group" ? `/mam/${m.el_id}` : `/mam/${groupId}/asset/${m.el_id}`);
  const dragOf = (m: Member) => (event: DragEvent) => {
    const moving = selected.has(m.el_id) ? [...selected.values()] : [m];
    startDrag(event, { from: groupId, members: moving.map((x) => ({ el_id: x.el_id, el_type: x.el_type })) });
  };
  const itemProps = (m: Member) => ({
    member: m,
    href: hrefOf(m),
    preview: previews[m.el_id],
    selected: selected.has(m.el_id),
    onSelect: (on: boolean) => select(m, on),
    onDragStart: dragOf(m),
  });

  const renderRow = (row: number) => {
    if (view === "list") return <ListRow {...itemProps(items[row])} />;
    return (
      <Group gap={8} wrap="nowrap">
        {items.slice(row * columns, row * columns + columns).map((m) => (
          <GridCell key={m.el_id} {...itemProps(m)} />
        ))}
      </Group>
    );
  };

  // Uploads into this group need create on it (the upload half offers the drop zone only then); the
  // group's acl is the server's full answer (superuser already expanded), so it is read, not re-derived.
  const canUpload = !!group?.acl.includes("create");
  const pane =
    done && items.length === 0 ? (
      <Text c="dimmed">{ru.mam.empty}</Text>
    ) : (
      <VirtualRows
        // Another order is another list: it starts at its top (a reload in the same order keeps the scroll).
        key={`${data.order.sort}-${data.order.order}-${data.order.filters ?? ""}`}
        label={ru.mam.contents}
        count={rowCount}
        rowHeight={view === "list" ? LIST_ROW_HEIGHT : GRID_CELL.height}
        renderRow={renderRow}
        onVisibleEnd={onVisibleEnd}
        onWidth={setWidth}
      />
    );

  const allSelected = items.length > 0 && selected.size === items.length;
  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      {/* The actions wrap under the title where the screen is narrow (a phone), instead of widening the page. */}
      <Group justify="space-between" gap="xs">
        <Title order={3} style={{ minWidth: 0 }} lineClamp={1}>
          {title}
        </Title>
        <Group gap="xs">
          {group && <CsvActions groupId={groupId} groupName={group.group_name} onApplied={revalidate} />}
          {groupId !== VIRTUAL_ROOT_ID && <MountDiskButton groupId={groupId} name={title} />}
          <Text size="xs" c="dimmed">
            {ru.mam.loadedCount(items.length)}
          </Text>
          {loading && <Loader size="xs" />}
        </Group>
      </Group>
      <Group gap="xs" justify="space-between">
        <Group gap="xs">
          <Checkbox
            size="xs"
            aria-label={ru.mam.selectAll}
            checked={allSelected}
            indeterminate={selected.size > 0 && !allSelected}
            onChange={(e) => selectAll(e.currentTarget.checked ? items : null)}
          />
          {selected.size > 0 && (
            <SelectionBar groupId={groupId} selected={[...selected.values()]} onClear={() => selectAll(null)} onChanged={revalidate} />
          )}
        </Group>
        <Group gap="xs">
          <ContentsFilter />
          <ContentsViewControls sortKey={sortKey} sortDir={sortDir} onSort={setSort} view={view} />
        </Group>
      </Group>
      {view === "list" && <ListHeader />}
      <UploadDropzone groupId={groupId} canUpload={canUpload} onChanged={revalidate}>
        {pane}
      </UploadDropzone>
    </Stack>
  );
}
