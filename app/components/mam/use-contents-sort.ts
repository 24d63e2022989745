import { useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { useStore } from "../../lib/store";
import { prefsStore, saveSettings } from "../../lib/user-prefs";
import { sortOf } from "./contents";
import type { SortDir, SortKey } from "./sort";

/**
 * The contents' order: it is in the address (the server sorts), and the user's last choice is remembered. An
 * address without a sort shows that last one (a bookmark or a link with a sort keeps its own).
 */
export function useContentsSort() {
  const [params, setParams] = useSearchParams();
  const { key, dir } = sortOf(params);
  const savedSort = useStore(prefsStore).settings.mam_sort;
  useEffect(() => {
    if (params.has("sort") || !savedSort) return;
    const next = new URLSearchParams(params);
    next.set("sort", savedSort.key);
    if (savedSort.dir === "desc") next.set("order", "desc");
    setParams(next, { replace: true, preventScrollReset: true });
  }, [params, savedSort, setParams]);
  /**
   * Changes the key or the way, and keeps the other as the address has it now. The address is read at the click,
   * not from this render: the router writes it before the page renders the new one, and a click in between (the
   * way right after the key) took the old key and dropped the new one.
   */
  const setSort = (change: { key?: SortKey; dir?: SortDir }) => {
    const next = new URLSearchParams(window.location.search);
    const { key, dir } = { ...sortOf(next), ...change };
    if (key === "none") next.delete("sort");
    else next.set("sort", key);
    if (dir === "asc") next.delete("order");
    else next.set("order", dir);
    setParams(next, { replace: true, preventScrollReset: true });
    saveSettings({ mam_sort: key === "none" ? null : { key, dir } });
  };
  return { sortKey: key, sortDir: dir, setSort };
}
