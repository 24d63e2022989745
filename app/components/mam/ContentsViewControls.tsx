import { ActionIcon, SegmentedControl, Select } from "@mantine/core";
import { ru } from "../../i18n/ru";
import { saveSettings } from "../../lib/user-prefs";
import type { SortDir, SortKey } from "./sort";

export type View = "list" | "grid";

type Props = { sortKey: SortKey; sortDir: SortDir; onSort: (change: { key?: SortKey; dir?: SortDir }) => void; view: View };

/** How the contents show: sorted by what, which way, and as a list or a grid (the view is a saved setting). */
export function ContentsViewControls({ sortKey, sortDir, onSort, view }: Props) {
  return (
    <>
      <Select
        size="xs"
        w={150}
        aria-label={ru.mam.sortBy}
        value={sortKey}
        allowDeselect={false}
        onChange={(v) => onSort({ key: (v as SortKey) ?? "none" })}
        data={(["none", "name", "date", "size"] as const).map((k) => ({ value: k, label: ru.mam.sort[k] }))}
      />
      <ActionIcon
        variant="default"
        aria-label={sortDir === "asc" ? ru.mam.sortAsc : ru.mam.sortDesc}
        onClick={() => onSort({ dir: sortDir === "asc" ? "desc" : "asc" })}
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
    </>
  );
}
