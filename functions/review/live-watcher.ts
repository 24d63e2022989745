/**
 * What the Worker and the live room (live-room.ts) agree on about a watcher. Kept apart from the room's class,
 * which imports `cloudflare:workers`: the Worker's code that Node runs too (the libSQL tests) imports only this.
 */

/** Who a socket belongs to and the frame they were last seen at (null: not told yet, or not a video). */
export interface Watcher {
  user_id: string;
  name: string;
  frame: number | null;
}

/** Headers the Worker names the caller with on `/connect` (never taken from the outside: the room has no route of its own). */
export const watcherHeaders = { user: "X-Review-User", name: "X-Review-Name" } as const;
