import { useState } from "react";

/**
 * State that starts from `value` and starts over whenever `value` changes (a new loader answer, another address),
 * while local changes in between stay. React's "adjusting state when a prop changes": set during render, so the
 * screen never shows a frame of the old state as an effect copying the prop would.
 */
export function useSyncedState<T>(value: T) {
  const [state, setState] = useState(value);
  const [from, setFrom] = useState(value);
  if (!Object.is(from, value)) {
    setFrom(value);
    setState(value);
  }
  return [state, setState] as const;
}
