import { useEffect, useRef } from "react";
import { showError } from "../../lib/notify";

/**
 * Calls `load` now and every `ms` while the tab is visible; a slow answer never overlaps the next call.
 * A failure shows one error toast; further failures stay quiet until a call succeeds again, so an outage
 * does not pile up a toast every second.
 */
export function usePolling(load: (signal: AbortSignal) => Promise<unknown>, ms: number, deps: unknown[]) {
  const ref = useRef(load);
  ref.current = load;
  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failing = false;
    const tick = async () => {
      if (document.visibilityState === "visible") {
        try {
          await ref.current(ctrl.signal);
          failing = false;
        } catch (err) {
          if (!ctrl.signal.aborted && !failing) showError(err);
          failing = true;
        }
      }
      if (!ctrl.signal.aborted) timer = setTimeout(tick, ms);
    };
    tick();
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, deps);
}
