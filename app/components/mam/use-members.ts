import { useCallback, useMemo, useRef, useState } from "react";
import { runAction } from "../../lib/actions";
import type { Contents } from "./contents";
import { previewsOfPage } from "./contents";
import { listMembers, PAGE_SIZE, type Member } from "./mam-api";

interface MorePages {
  /** The loader's answer these pages continue. */
  base: Contents;
  items: Member[];
  previews: Record<string, string | null>;
  /** A short page came back (or a page failed): nothing more to load. */
  done: boolean;
}

const nothingMore = (base: Contents): MorePages => ({ base, items: [], previews: {}, done: base.items.length < PAGE_SIZE });

/**
 * A group's contents past the first page, 50 at a time, in the loader's order. The first page is the
 * route's loader data; `loadMore` is called by the list when the user scrolls near the end of what is
 * loaded (an event, never an effect), fetches the next page and its thumbnails unless a page is already on
 * its way or the last one has come. When the loader answers again (a change here, a new sort) the pages
 * loaded so far are dropped: they continued the old answer, and a page still on its way is thrown away.
 */
export function useMembers(data: Contents) {
  const [more, setMore] = useState<MorePages>(() => nothingMore(data));
  const [loading, setLoading] = useState(false);
  const current = more.base === data ? more : nothingMore(data);
  if (more.base !== data) setMore(current);
  const busy = useRef(false);
  const latest = useRef(current);
  latest.current = current;

  const loadMore = useCallback(async () => {
    const from = latest.current;
    if (busy.current || from.done) return;
    busy.current = true;
    setLoading(true);
    const page = await runAction(() => listMembers(from.base.groupId, from.base.items.length + from.items.length, from.base.order));
    const previews = page ? await previewsOfPage(page) : {};
    busy.current = false;
    setLoading(false);
    setMore((m) =>
      m.base !== from.base
        ? m
        : page
          ? { ...m, items: [...m.items, ...page], previews: { ...m.previews, ...previews }, done: page.length < PAGE_SIZE }
          : { ...m, done: true },
    );
  }, []);

  const items = useMemo(() => (current.items.length ? [...data.items, ...current.items] : data.items), [data, current.items]);
  const previews = useMemo(() => ({ ...data.previews, ...current.previews }), [data, current.previews]);
  return { items, previews, done: current.done, loading, loadMore };
}
