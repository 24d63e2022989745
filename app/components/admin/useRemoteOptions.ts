import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useRef, useState } from "react";
import { showError } from "../../lib/notify";

export interface PickOption {
  value: string;
  label: string;
}

/**
 * Options for a picker that searches on the server: the typed text goes to `search` (debounced, the
 * previous request aborted), failures become a toast. An empty text asks `search` too, so a picker
 * can show a first page before anything is typed.
 */
export function useRemoteOptions(search: (q: string, signal: AbortSignal) => Promise<PickOption[]>, text: string, enabled = true) {
  const [debounced] = useDebouncedValue(text.trim(), 250);
  const [options, setOptions] = useState<PickOption[]>([]);
  const [loading, setLoading] = useState(false);
  // `search` is a fresh closure every render: the effect calls the latest one; the text and the switch decide when.
  const latest = useRef(search);
  latest.current = search;
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setLoading(true);
    latest
      .current(debounced, controller.signal)
      .then((found) => {
        if (!controller.signal.aborted) setOptions(found);
      })
      .catch((error) => {
        if (!controller.signal.aborted) showError(error);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [debounced, enabled]);
  return { options, loading };
}
