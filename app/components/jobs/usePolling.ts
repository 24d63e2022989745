import { useEffect, useRef } from "react";

/** Calls `load` now and every `ms` while the tab is visible; a slow answer never overlaps the next call. */
export function usePolling(load: (signal: AbortSignal) => Promise<unknown>, ms: number, deps: unknown[]) {
  const ref = useRef(load);
  ref.current = load;
  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (document.visibilityState === "visible") await ref.current(ctrl.signal).catch(() => {});
      if (!ctrl.signal.aborted) timer = setTimeout(tick, ms);
    };
    tick();
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
