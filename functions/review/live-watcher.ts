/**
 * What the Worker and the live room (live-room.ts) agree on about a watcher and a push. Kept apart from the room's
 * class, which imports `cloudflare:workers`: the Worker's code that Node runs too (the libSQL tests) imports only this.
 */

/** Who a socket belongs to and the frame they were last seen at (null: not told yet, or not a video), as presence shows it. */
export interface Watcher {
  /** A user's id, or a review link's reviewer id for its guest (null in what a guest is sent about others). */
  user_id: string | null;
  /** Null for a guest who has not given a name yet (the page shows a neutral word from its dictionary). */
  name: string | null;
  frame: number | null;
  guest: boolean;
}

/**
 * A socket's attachment: the watcher, what it may hear, and until when (docs/decisions/061, "Guests in the live
 * room"). A guest hears only its link's version, never internal comments; every socket is closed (4001) at the first
 * broadcast after `until`, and the page comes back with a fresh ticket, which checks its rights again.
 */
export interface Attachment extends Watcher {
  internal: boolean;
  /** The one version a guest is limited to; null for a signed-in reader, who hears every version. */
  version: number | null;
  /** Milliseconds since the epoch. */
  until: number;
}

/** Headers the Worker names the caller with on `/connect` (never taken from the outside: the room has no route of its own). */
export const watcherHeaders = {
  user: "X-Review-User",
  name: "X-Review-Name",
  /** The guest's version; absent for a signed-in reader. */
  guestVersion: "X-Review-Guest-Version",
  until: "X-Review-Until",
} as const;

/** How long a socket lives before it must come back with a fresh ticket (rights are checked per ticket). */
export const socketLifeMs = 5 * 60 * 1000;
/** The close code that asks a page to reconnect at once with a fresh ticket. */
export const renewCloseCode = 4001;

/**
 * What the Worker pushes to the room: the team's message and the guest's variant (null when guests must not hear of
 * it: an internal comment or a reply of an internal thread), both for `version`.
 */
export interface RoomPush {
  version: number;
  team: { type: string; asset_id: string; version: number; [k: string]: unknown };
  guest: { type: string; asset_id: string; version: number; [k: string]: unknown } | null;
}

interface GuestAuthored {
  author: { user_id: string | null };
  replies?: GuestAuthored[];
}

/**
 * The guest variant as one guest is sent it, as the guest API shows it to them: other authors' ids left out (the
 * Worker keeps only guests' ids in the variant, this keeps only the socket's own), and the approval reduced to the
 * overall status and the guest's own decision.
 */
export function forGuest(m: NonNullable<RoomPush["guest"]>, me: string | null): unknown {
  if (m.type === "approval.changed") {
    const { decisions, approval, ...rest } = m as unknown as {
      decisions: Record<string, { status: string; note: string }>;
      approval: { overall: string };
    };
    const mine = (me && decisions?.[me]) || { status: "pending", note: "" };
    return { ...rest, approval: { overall: approval.overall, status: mine.status, note: mine.note } };
  }
  const own = <T extends GuestAuthored>(c: T): T => ({
    ...c,
    author: { ...c.author, user_id: c.author.user_id !== null && c.author.user_id === me ? me : null },
    ...(c.replies ? { replies: c.replies.map(own) } : {}),
  });
  const comment = m.comment as GuestAuthored | undefined;
  return comment ? { ...m, comment: own(comment) } : m;
}

/** Presence as a guest is sent it: the others' ids left out (the guest's list shows no user ids), their names kept. */
export const presenceForGuest = (watchers: Watcher[], me: string | null) =>
  watchers.map((w) => (w.user_id === me ? w : { ...w, user_id: null }));
