import { MountDiskButton } from "./MountDisk";
import { ActionIcon, Checkbox, Group, Loader, SegmentedControl, Select, Stack, Text, Title } from "@mantine/core";
import { useRevalidator, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useState, type DragEvent } from "react";
import { ru } from "../../i18n/ru";
import { useStore } from "../../lib/store";
import { prefsStore, saveSettings } from "../../lib/user-prefs";
import { CsvActions } from "../metadata/CsvActions";
import { ContentsFilter } from "./ContentsFilter";
import { UploadDropzone } from "../uploads/UploadDropzone";
import { GRID_CELL, GridCell, LIST_ROW_HEIGHT, ListHeader, ListRow } from "./ContentsItem";
import { sortOf, type Contents } from "./contents";
import { startDrag } from "./dnd";
import { VIRTUAL_ROOT_ID, type Member } from "./mam-api";
import { rememberOrder } from "./nav-list";
import { SelectionBar } from "./SelectionBar";
import type { SortDir, SortKey } from "./sort";
import { treeStore } from "./tree-store";
import { useMembers } from "./use-members";
import { VirtualRows } from "./VirtualRows";

type View = "list" | "grid";

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
  const [params, setParams] = useSearchParams();
  const { key: sortKey, dir: sortDir } = sortOf(params);
  const { revalidate } = useRevalidator();
  const { settings } = useStore(prefsStore);
  const view: View = settings.mam_view ?? "list";
  const { items, done, loading, previews, loadMore } = useMembers(data);
  const [selected, setSelected] = useState<Map<string, Member>>(new Map());
  const [width, setWidth] = useState(800);

  // An address without a sort shows the user's last one (a bookmark or a link with a sort keeps its own).
  const savedSort = settings.mam_sort;
  useEffect(() => {
    if (params.has("sort") || !savedSort) return;
    const next = new URLSearchParams(params);
    next.set("sort", savedSort.key);
    if (savedSort.dir === "desc") next.set("order", "desc");
    setParams(next, { replace: true, preventScrollReset: true });
  }, [params, savedSort, setParams]);
  // Fresh data (a move, a delete, an upload): what was selected and is gone leaves the selection.
  const [selectionBase, setSelectionBase] = useState(data);
  if (selectionBase !== data) {
    setSelectionBase(data);
    const present = new Set(data.items.map((m) => m.el_id));
    setSelected((prev) => new Map([...prev].filter(([id]) => present.has(id))));
  }

  useEffect(
    () =>
      rememberOrder(
        groupId,
        items.filter((m) => m.el_type === "asset").map((m) => m.el_id),
      ),
    [groupId, items],
  );
  const setSort = (key: SortKey, dir: SortDir) => {
    const next = new URLSearchParams(params);
    if (key === "none") next.delete("sort");
    else next.set("sort", key);
    if (dir === "asc") next.delete("order");
    else next.set("order", dir);
    setParams(next, { replace: true, preventScrollReset: true });
    saveSettings({ mam_sort: key === "none" ? null : { key, dir } });
  };
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
  const select = (m: Member, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(m.el_id, m);
      else next.delete(m.el_id);
      return next;
    });
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
            onChange={(e) => setSelected(e.currentTarget.checked ? new Map(items.map((m) => [m.el_id, m])) : new Map())}
          />
          {selected.size > 0 && (
            <SelectionBar
              groupId={groupId}
              selected={[...selected.values()]}
              onClear={() => setSelected(new Map())}
              onChanged={revalidate}
            />
          )}
        </Group>
        <Group gap="xs">
          <ContentsFilter />
          <Select
            size="xs"
            w={150}
            aria-label={ru.mam.sortBy}
            value={sortKey}
            allowDeselect={false}
            onChange={(v) => setSort((v as SortKey) ?? "none", sortDir)}
            data={(["none", "name", "date", "size"] as const).map((k) => ({ value: k, label: ru.mam.sort[k] }))}
          />
          <ActionIcon
            variant="default"
            aria-label={sortDir === "asc" ? ru.mam.sortAsc : ru.mam.sortDesc}
            onClick={() => setSort(sortKey, sortDir === "asc" ? "desc" : "asc")}
          >
            <span aria-hidden="true">{sortDir === "asc" ? "↑" : "↓"}</span>
          </ActionIcon>
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => saveSettings({ mam_view: v as View })}
            data={[
              { value: "list", label: ru.mam.viewList },
              { value: "grid", label: ru.mam.viewGrid },
            ]}
          />
        </Group>
      </Group>
      {view === "list" && <ListHeader />}
      <UploadDropzone groupId={groupId} canUpload={canUpload} onChanged={revalidate}>
        {pane}
      </UploadDropzone>
    </Stack>
  );
}
