import { useCallback, useEffect, useRef, useState } from "react";
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
  // `load` is a fresh closure each render: the effect calls the latest one; page, deps and reloads decide when.
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => setPage(0), [key]);
  useEffect(() => {
    const controller = new AbortController();
    latest.current(page * pageSize, pageSize, controller.signal).then(
      (found) => !controller.signal.aborted && setRows(found),
      (error) => {
        if (controller.signal.aborted) return;
        showError(error);
        setRows([]);
      },
    );
    return () => controller.abort();
  }, [page, key, tick, pageSize]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { page, setPage, rows, reload };
}
