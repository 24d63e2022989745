import { type RefObject, useEffect, useRef, useState } from "react";
import * as review from "../../../shared/review/contract";
import { API_ROOT, call, routePath } from "../../lib/api";
import { type ApprovalOut, type CommentOut, type CommentsOut, momentAt } from "./review-api";

/**
 * A page's side of the live review room (docs/decisions/061-review-and-approval.md, "Live room", "Guests in the live
 * room"): a ticket, the WebSocket, the room's messages handed to the page, the paused frame sent as presence, and a
 * reconnect with backoff after which the page reconciles from the REST lists (messages sent while away are not
 * replayed). The viewer (`useReviewLive`) and a review link's guest page share it (`useLiveRoom`).
 */

type Reply = CommentOut["replies"][number];

/** As functions/review/live-watcher.ts sends it: a guest is told no one's id but its own; a guest may have no name yet. */
export interface Watcher {
  user_id: string | null;
  name: string | null;
  frame: number | null;
  guest: boolean;
}

/** The guest's approval (the guest API's shape): the overall status and the guest's own decision. */
export interface GuestApproval {
  overall: ApprovalOut["overall"];
  status: ApprovalOut["overall"];
  note: string;
}

export type LiveMessage<A = ApprovalOut> =
  | { type: "comment.created" | "comment.updated" | "comment.deleted"; asset_id: string; version: number; comment: CommentOut | Reply }
  | { type: "approval.changed"; asset_id: string; version: number; approval: A }
  /** The version got a new rendition (a proxy, a preview): a page without a player loads again. */
  | { type: "media.ready"; asset_id: string; version: number }
  | { type: "presence"; watchers: Watcher[] };

/** A ticket to the room (POST …/live-ticket): it opens the named asset's room until `expires` (Unix seconds). */
export interface LiveTicket {
  ticket: string;
  asset_id: string;
  expires: number;
}

/** A ticket this close to its end is not worth a handshake the room would refuse. */
const TICKET_MARGIN_MS = 5_000;

/** The room closes a socket with this once its time is up: the page comes back at once with a fresh ticket. */
const renewCode = 4001;

/** The API's order (functions/review/comments.ts): page, then the moment, then creation; neither page nor moment last. */
function byTime(a: CommentOut, b: CommentOut) {
  const key = (c: CommentOut) => [c.page ?? Number.POSITIVE_INFINITY, c.at?.seconds ?? Number.POSITIVE_INFINITY];
  const [pa, ta] = key(a);
  const [pb, tb] = key(b);
  return pa - pb || (ta === tb ? 0 : ta < tb ? -1 : 1) || a.ctime - b.ctime;
}

/** The list with one room message applied; a message seen twice (the panel's own change, read back) changes nothing. */
export function applyComment(data: CommentsOut, m: Extract<LiveMessage<unknown>, { comment: unknown }>): CommentsOut {
  const c = m.comment;
  let items = data.items;
  if (m.type === "comment.deleted") {
    items = items
      .filter((x) => x.comment_id !== c.comment_id)
      .map((x) =>
        x.replies.some((r) => r.comment_id === c.comment_id)
          ? { ...x, replies: x.replies.filter((r) => r.comment_id !== c.comment_id) }
          : x,
      );
  } else if (c.parent_id) {
    items = items.map((x) =>
      x.comment_id !== c.parent_id
        ? x
        : {
            ...x,
            replies: x.replies.some((r) => r.comment_id === c.comment_id)
              ? x.replies.map((r) => (r.comment_id === c.comment_id ? c : r))
              : [...x.replies, c],
          },
    );
  } else {
    const top = { replies: [], ...c } as CommentOut;
    items = [...items.filter((x) => x.comment_id !== c.comment_id), top].sort(byTime);
  }
  return { ...data, items };
}

/** Seconds to wait before the n-th reconnect: 1, 2, 4 … up to 30, with a little jitter so a room's watchers spread out. */
const backoff = (n: number) => Math.min(30, 2 ** n) * (0.8 + Math.random() * 0.4) * 1000;

/**
 * Joins the asset's room while the panel is shown. `onMessage` gets comment and approval messages of any version
 * (the caller keeps its version's); `onReconnect` runs when the socket is back after a drop. Answers who is watching.
 */
export function useReviewLive({
  assetId,
  firstTicket,
  media,
  rate,
  onMessage,
  onReconnect,
}: {
  assetId: string;
  /** The loader's ticket (review-api.ts loadReview); null when it could not be had. */
  firstTicket: Omit<LiveTicket, "asset_id"> | null;
  media: RefObject<HTMLMediaElement | null> | null;
  rate: CommentsOut["rate"];
  onMessage: (m: Exclude<LiveMessage, { type: "presence" }>) => void;
  onReconnect: () => void;
}): Watcher[] {
  return useLiveRoom<ApprovalOut>({
    room: assetId,
    firstTicket: firstTicket && { ...firstTicket, asset_id: assetId },
    ticket: async () => ({ ...(await call(review.liveTicket, { params: { asset_id: assetId } })), asset_id: assetId }),
    media,
    rate,
    onMessage,
    onReconnect,
  });
}

/**
 * The room's socket, for any page. The first connect uses `firstTicket`, which came with the page's data (its
 * loader): the effect opens a socket, it loads nothing (docs/decisions/063). Every later connect, from the socket's
 * close or a retry's timer, asks `ticket` for a fresh one (it names the asset whose room it opens). `room` is what
 * identifies the room to the page: a new one reconnects, with the page's ticket of that render.
 */
export function useLiveRoom<A>({
  room,
  firstTicket,
  ticket: fetchTicket,
  media,
  rate,
  onMessage,
  onReconnect,
}: {
  room: string;
  firstTicket: LiveTicket | null;
  ticket: () => Promise<LiveTicket>;
  media: RefObject<HTMLMediaElement | null> | null;
  rate: CommentsOut["rate"];
  onMessage: (m: Exclude<LiveMessage<A>, { type: "presence" }>) => void;
  onReconnect: () => void;
}): Watcher[] {
  const [watchers, setWatchers] = useState<Watcher[]>([]);
  // The latest callbacks and rate, read by the socket's handlers without reconnecting when they change.
  const latest = useRef({ onMessage, onReconnect, rate, fetchTicket, firstTicket });
  latest.current = { onMessage, onReconnect, rate, fetchTicket, firstTicket };

  // biome-ignore lint/correctness/useExhaustiveDependencies: another room (asset, link) is another connection; the ticket's fetcher is read through `latest`.
  useEffect(() => {
    let ws: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let failures = 0;
    let opened = false;

    /** The frame the player is paused at (null while it plays, or without a known rate): what the others see of us. */
    const frame = () => {
      const el = media?.current;
      const r = latest.current.rate;
      return el?.paused && r ? (momentAt(el.currentTime, r).frame ?? null) : null;
    };
    const sendPresence = () => {
      if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "presence", frame: frame() }));
    };

    const connect = async (inHand: LiveTicket | null) => {
      try {
        const { ticket, asset_id } = inHand ?? (await latest.current.fetchTicket());
        if (stopped) return;
        const url = new URL(API_ROOT + routePath(review.liveRoom, { asset_id }), window.location.href);
        url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
        url.searchParams.set("ticket", ticket);
        const socket = new WebSocket(url);
        ws = socket;
        socket.onopen = () => {
          failures = 0;
          sendPresence();
          // Back after a drop: what was sent meanwhile is read from the REST lists.
          if (opened) latest.current.onReconnect();
          opened = true;
        };
        socket.onmessage = (event) => {
          let m: LiveMessage<A>;
          try {
            m = JSON.parse(String(event.data));
          } catch {
            return;
          }
          if (m.type === "presence") setWatchers(m.watchers);
          else if (m.asset_id === asset_id) latest.current.onMessage(m);
        };
        socket.onclose = (event) => {
          if (ws === socket) ws = null;
          setWatchers([]);
          // The socket's time is up (its rights are checked again by a fresh ticket): back at once, not after a backoff.
          if (event.code === renewCode && !stopped) timer = setTimeout(() => connect(null), 0);
          else retry();
        };
      } catch (error) {
        console.error(error);
        retry();
      }
    };
    const retry = () => {
      if (stopped) return;
      timer = setTimeout(() => connect(null), backoff(failures++));
    };

    // The page's ticket, while it is good; without one (the loader could not get it, or it is too old) the first
    // try counts as failed and the retry asks for a fresh one.
    const first = latest.current.firstTicket;
    if (first && first.expires * 1000 > Date.now() + TICKET_MARGIN_MS) void connect(first);
    else retry();
    const el = media?.current;
    const kinds = ["pause", "play", "seeked"] as const;
    for (const k of kinds) el?.addEventListener(k, sendPresence);
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const k of kinds) el?.removeEventListener(k, sendPresence);
      ws?.close(1000, "left");
    };
  }, [room, media]);

  return watchers;
}
