import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { enforceNavigationGuard } from "./guard";

/**
 * A signed-in screen's clientLoader (docs/decisions/029). Remix runs the loaders of all matched routes at
 * once, so a screen's loader cannot count on the layout's guard having restored the bearer first: it runs
 * the same guard (concurrent callers share one refresh and one whoami) and only then loads. A failed call
 * throws, and the route's ErrorBoundary shows it. It also runs when the page is first opened (`hydrate`):
 * the server has no bearer to load with (docs/decisions/022); the root's HydrateFallback shows until then.
 */
export function screenLoader<T>(load: (args: ClientLoaderFunctionArgs) => Promise<T>) {
  const clientLoader = async (args: ClientLoaderFunctionArgs): Promise<T> => {
    await enforceNavigationGuard(args.request);
    return load(args);
  };
  return Object.assign(clientLoader, { hydrate: true as const });
}

/**
 * Polling for a screen that shows live state: re-runs the route's loaders every `ms` while the tab is
 * visible. A tick is skipped while a load or a navigation is under way, so a slow answer never overlaps the
 * next; a failed load shows the route's ErrorBoundary, which offers to try again. `ms` 0 (or less) pauses it.
 */
export function useRevalidateEvery(ms: number): void {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (state !== "idle" || ms <= 0) return;
    let timer: ReturnType<typeof setTimeout>;
    // A hidden tab keeps waiting (it calls nothing); the first tick after it shows again loads.
    const tick = () => {
      if (document.visibilityState === "visible") revalidate();
      else timer = setTimeout(tick, ms);
    };
    timer = setTimeout(tick, ms);
    return () => clearTimeout(timer);
  }, [ms, state, revalidate]);
}

/** A whole-number search parameter (a page, a size), or the fallback when it is absent or not a number. */
export function intParam(params: URLSearchParams, name: string, fallback: number): number {
  const value = Number.parseInt(params.get(name) ?? "", 10);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}
