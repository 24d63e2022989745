import { useCallback, useEffect, useRef, useState } from "react";
import { runAction } from "../../lib/actions";
import { useStore } from "../../lib/store";
import { listMembers, memberOfAsset, PAGE_SIZE, previewLinks, type Member } from "./mam-api";
import { contentsVersion } from "./move";
import type { MembersOrder } from "./sort";

/** The first page as the server rendered it (contents.server.ts), in the default order. */
export interface FirstPage {
  items: Member[];
  previews: Record<string, string | null>;
}

export interface MembersState {
  items: Member[];
  /** A short page came back: nothing more to load. */
  done: boolean;
  loading: boolean;
  /** The first page failed (unreadable or missing group). */
  failed: boolean;
  previews: Record<string, string | null>;
}

const empty = (): MembersState => ({ items: [], done: false, loading: false, failed: false, previews: {} });
const seeded = (first: FirstPage): MembersState => ({
  ...empty(),
  items: first.items,
  previews: first.previews,
  done: first.items.length < PAGE_SIZE,
});

/**
 * A group's contents, 50 at a time (spec 9), in the server's `order`: `loadMore` fetches the next page
 * unless one is already on its way or the last page has come. Thumbnails are asked for per page (one
 * preview-by-list call). Reloads from the start when the order changes or contents change here
 * (contentsVersion). A first page rendered by the server is used as it is, not asked for again.
 */
export function useMembers(groupId: string, order: MembersOrder, first?: FirstPage | null) {
  const [state, setState] = useState<MembersState>(() => (first ? seeded(first) : empty()));
  const version = useStore(contentsVersion);
  const busy = useRef(false);
  const generation = useRef(0);
  const usedFirst = useRef(!!first);
  const stateRef = useRef(state);
  stateRef.current = state;
  const { sort, order: dir } = order;

  const loadMore = useCallback(async () => {
    const current = stateRef.current;
    if (busy.current || current.done || current.failed) return;
    busy.current = true;
    const gen = generation.current;
    setState((s) => ({ ...s, loading: true }));
    const page = await runAction(() => listMembers(groupId, current.items.length, { sort, order: dir }));
    if (gen !== generation.current) return;
    busy.current = false;
    if (!page) {
      setState((s) => ({ ...s, loading: false, failed: s.items.length === 0, done: s.items.length > 0 }));
      return;
    }
    setState((s) => ({ ...s, loading: false, items: [...s.items, ...page], done: page.length < PAGE_SIZE }));
    const assets = page.filter((m) => m.el_type === "asset" && m.el_info.var).map((m) => m.el_id);
    if (assets.length) {
      // No toast for thumbnails: the mime-type icon stays, which is what a missing preview shows anyway.
      const links = await previewLinks(assets).catch(() => null);
      if (links && gen === generation.current) {
        setState((s) => ({ ...s, previews: { ...s.previews, ...Object.fromEntries(links.map((l) => [l.id, l.preview])) } }));
      }
    }
  }, [groupId, sort, dir]);

  useEffect(() => {
    if (usedFirst.current) {
      usedFirst.current = false;
      return;
    }
    generation.current += 1;
    busy.current = false;
    stateRef.current = empty();
    setState(stateRef.current);
    void loadMore();
  }, [groupId, version, loadMore]);

  /** An upload into this group finished: the asset joins the list (spec 4), without a reload. */
  const addAsset = useCallback(async (assetId: string) => {
    const gen = generation.current;
    const member = await runAction(() => memberOfAsset(assetId));
    if (!member || gen !== generation.current) return;
    setState((s) => (s.items.some((m) => m.el_id === assetId) ? s : { ...s, items: [...s.items, member] }));
  }, []);

  return { ...state, loadMore, addAsset };
}
