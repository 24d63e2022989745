import { useSyncExternalStore } from "react";

/** A minimal observable value; React reads it through `useStore`, plain modules through `get`/`subscribe`. */
export interface Store<T> {
  /** The value the store was created with: what the server renders and what hydration must match. */
  readonly initial: T;
  get(): T;
  set(next: T): void;
  subscribe(listener: (value: T) => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    initial,
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The server and the hydrating browser both see `initial` (the browser may already hold tokens the server
 * never knew); React then re-renders with the live value.
 */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, () => store.initial);
}
