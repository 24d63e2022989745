import { useState } from "react";
import type { Contents } from "./contents";
import type { Member } from "./mam-api";

/** The ticked items of the open group, by id. Fresh data (a move, a delete, an upload) drops those that are gone. */
export function useSelection(data: Contents) {
  const [selected, setSelected] = useState<Map<string, Member>>(new Map());
  // React's "adjusting state when a prop changes": no frame shows a selection of items that are gone.
  const [selectionBase, setSelectionBase] = useState(data);
  if (selectionBase !== data) {
    setSelectionBase(data);
    const present = new Set(data.items.map((m) => m.el_id));
    setSelected((prev) => new Map([...prev].filter(([id]) => present.has(id))));
  }
  const select = (m: Member, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(m.el_id, m);
      else next.delete(m.el_id);
      return next;
    });
  const selectAll = (items: Member[] | null) => setSelected(new Map((items ?? []).map((m) => [m.el_id, m])));
  return { selected, select, selectAll };
}
