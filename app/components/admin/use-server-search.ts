import { useDebouncedCallback } from "@mantine/hooks";
import { useEffect, useRef, useState } from "react";
import { showError } from "../../lib/notify";

export interface PickOption {
  value: string;
  label: string;
}

export type SearchOptions = (q: string, signal: AbortSignal) => Promise<PickOption[]>;

/**
 * Options of a picker that searches on the server (docs/decisions/033). The picker calls `search(text)`
 * from its own handlers — the text changed, the list opened — never from an effect: the call is debounced
 * and a newer one aborts the one before, so a slow answer never replaces a fresher one. A failure is a toast.
 */
export function useServerSearch(find: SearchOptions) {
  const [options, setOptions] = useState<PickOption[]>([]);
  const [loading, setLoading] = useState(false);
  const pending = useRef<AbortController | null>(null);
  // The last call is abandoned when the picker goes away (cleanup only; nothing is loaded here).
  useEffect(() => () => pending.current?.abort(), []);

  const run = async (q: string) => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setLoading(true);
    try {
      const found = await find(q.trim(), controller.signal);
      if (!controller.signal.aborted) setOptions(found);
    } catch (error) {
      if (!controller.signal.aborted) showError(error);
    } finally {
      if (!controller.signal.aborted) setLoading(false);
    }
  };
  const search = useDebouncedCallback((q: string) => void run(q), 250);
  return { options, loading, search };
}
