import { Box, Checkbox, Group, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { DragEvent } from "react";
import { ru } from "../../i18n/ru";
import { formatDate, formatSize } from "../../lib/format";
import { useHydrated } from "../../lib/use-hydrated";
import type { Member } from "./mam-api";
import { Thumb } from "./Thumb";

export interface ItemProps {
  member: Member;
  href: string;
  preview?: string | null;
  selected: boolean;
  onSelect: (checked: boolean) => void;
  onDragStart: (event: DragEvent) => void;
}

/** The date only once hydrated: the server's time zone is not the user's (a row rendered later has it at once). */
const useMeta = (m: Member) => ({
  size: m.el_type === "asset" ? formatSize(m.el_info.var_size ?? 0) : "",
  date: useHydrated() ? formatDate(m.el_info.ctime) : "",
  version: m.el_info.ver ? `v${m.el_info.ver}` : "",
});

/** What a list row and a grid tile both are: a list item that drags, named by its id and type for the drop and the tests. */
const itemAttributes = (member: ItemProps["member"], onDragStart: ItemProps["onDragStart"]) => ({
  role: "listitem",
  "data-item": member.el_id,
  "data-type": member.el_type,
  draggable: true,
  onDragStart,
});

export const LIST_ROW_HEIGHT = 48;
export const GRID_CELL = { width: 176, height: 212 };

/** One row of the list view: select box, thumbnail, name, size, date, version (a phone leaves out the last two for the name). */
export function ListRow({ member, href, preview, selected, onSelect, onDragStart }: ItemProps) {
  const m = useMeta(member);
  return (
    <Group
      {...itemAttributes(member, onDragStart)}
      gap="sm"
      wrap="nowrap"
      h={LIST_ROW_HEIGHT}
      px="xs"
      style={{ borderBottom: "1px solid var(--mantine-color-dark-5)", background: selected ? "var(--mantine-color-dark-5)" : undefined }}
    >
      <Checkbox
        size="xs"
        checked={selected}
        onChange={(e) => onSelect(e.currentTarget.checked)}
        aria-label={`${ru.mam.select} ${member.el_info.name}`}
      />
      <Thumb type={member.el_type} mime={member.el_info.mimetype} preview={preview} size={36} />
      <Text component={Link} to={href} size="sm" truncate style={{ flex: 1, minWidth: 0 }}>
        {member.el_info.name}
      </Text>
      <Text size="xs" c="dimmed" w={90} ta="right">
        {m.size}
      </Text>
      <Text size="xs" c="dimmed" w={80} ta="right" visibleFrom="sm">
        {m.date}
      </Text>
      <Text size="xs" c="dimmed" w={40} ta="right" visibleFrom="sm">
        {m.version}
      </Text>
    </Group>
  );
}

export function ListHeader() {
  return (
    <Group gap="sm" wrap="nowrap" px="xs" py={4} style={{ borderBottom: "1px solid var(--mantine-color-dark-4)" }}>
      <Box w={16} />
      <Box w={36} />
      <Text size="xs" fw={600} style={{ flex: 1 }}>
        {ru.mam.columns.name}
      </Text>
      <Text size="xs" fw={600} w={90} ta="right">
        {ru.mam.columns.size}
      </Text>
      <Text size="xs" fw={600} w={80} ta="right" visibleFrom="sm">
        {ru.mam.columns.date}
      </Text>
      <Text size="xs" fw={600} w={40} ta="right" visibleFrom="sm">
        {ru.mam.columns.version}
      </Text>
    </Group>
  );
}

/** One tile of the grid view. */
export function GridCell({ member, href, preview, selected, onSelect, onDragStart }: ItemProps) {
  const m = useMeta(member);
  return (
    <Box
      {...itemAttributes(member, onDragStart)}
      w={GRID_CELL.width - 8}
      h={GRID_CELL.height - 8}
      p={6}
      style={{
        borderRadius: 6,
        position: "relative",
        border: "1px solid var(--mantine-color-dark-4)",
        background: selected ? "var(--mantine-color-dark-5)" : undefined,
      }}
    >
      <Checkbox
        size="xs"
        checked={selected}
        onChange={(e) => onSelect(e.currentTarget.checked)}
        aria-label={`${ru.mam.select} ${member.el_info.name}`}
        style={{ position: "absolute", top: 6, left: 6, zIndex: 1 }}
      />
      <Link to={href} style={{ display: "flex", justifyContent: "center" }}>
        <Thumb type={member.el_type} mime={member.el_info.mimetype} preview={preview} size={128} />
      </Link>
      <Text component={Link} to={href} size="sm" truncate mt={4} display="block">
        {member.el_info.name}
      </Text>
      <Text size="xs" c="dimmed" truncate>
        {[m.size, m.date, m.version].filter(Boolean).join(" · ")}
      </Text>
    </Box>
  );
}
