import { useCallback, useEffect, useState } from "react";
import { showError } from "../../lib/notify";

/**
 * One page of a skip/take list: reloads when the page or `deps` change, and on `reload()`; a failed load
 * is a toast and an empty page. `page` goes back to 0 when `deps` change.
 */
export function usePaged<T>(load: (skip: number, take: number, signal: AbortSignal) => Promise<T[]>, pageSize: number, deps: unknown[]) {
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<T[] | null>(null);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(deps);
  useEffect(() => setPage(0), [key]);
  useEffect(() => {
    const controller = new AbortController();
    load(page * pageSize, pageSize, controller.signal).then(
      (found) => !controller.signal.aborted && setRows(found),
      (error) => {
        if (controller.signal.aborted) return;
        showError(error);
        setRows([]);
      },
    );
    return () => controller.abort();
    // `load` is a fresh closure each render; page, deps and reloads decide when to fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, key, tick, pageSize]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { page, setPage, rows, reload };
}
