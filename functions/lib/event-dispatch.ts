import type { Env } from "./env";

type Dispatch = (env: Env) => Promise<unknown>;
let dispatch: Dispatch | undefined;

/**
 * The automations' dispatcher (functions/udwf/dispatch.ts), handed in by each bundle's entry: functions/index.ts for
 * the Worker, app/entry.server.tsx for the Remix server build, which bundles its own copy of this module. A resource
 * udwf itself uses (sl's countView) starts a dispatch through here instead of importing udwf back
 * (docs/decisions/067-folder-boundaries.md).
 */
export function setEventDispatcher(fn: Dispatch) {
  dispatch = fn;
}

/** Starts the automations on the events written so far (none when no entry handed a dispatcher in). */
export async function dispatchPendingEvents(env: Env) {
  await dispatch?.(env);
}
