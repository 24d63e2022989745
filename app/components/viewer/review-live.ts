import { type RefObject, useEffect, useRef, useState } from "react";
import { api } from "../../lib/api";
import { type ApprovalOut, type CommentOut, type CommentsOut, momentAt } from "./review-api";

/**
 * The viewer's side of the live review room (docs/decisions/061-review-and-approval.md, "Live room"): a ticket, the
 * WebSocket, the room's messages handed to the panel, the paused frame sent as presence, and a reconnect with backoff
 * after which the panel reconciles from the REST lists (messages sent while away are not replayed).
 */

type Reply = CommentOut["replies"][number];

export interface Watcher {
  user_id: string;
  name: string;
  frame: number | null;
}

export type LiveMessage =
  | { type: "comment.created" | "comment.updated" | "comment.deleted"; asset_id: string; version: number; comment: CommentOut | Reply }
  | { type: "approval.changed"; asset_id: string; version: number; approval: ApprovalOut }
  | { type: "presence"; watchers: Watcher[] };

/** The API's order (functions/review/comments.ts): page, then the moment, then creation; neither page nor moment last. */
function byTime(a: CommentOut, b: CommentOut) {
  const key = (c: CommentOut) => [c.page ?? Number.POSITIVE_INFINITY, c.at?.seconds ?? Number.POSITIVE_INFINITY];
  const [pa, ta] = key(a);
  const [pb, tb] = key(b);
  return pa - pb || (ta === tb ? 0 : ta < tb ? -1 : 1) || a.ctime - b.ctime;
}

/** The list with one room message applied; a message seen twice (the panel's own change, read back) changes nothing. */
export function applyComment(data: CommentsOut, m: Extract<LiveMessage, { comment: unknown }>): CommentsOut {
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
  media,
  rate,
  onMessage,
  onReconnect,
}: {
  assetId: string;
  media: RefObject<HTMLMediaElement | null> | null;
  rate: CommentsOut["rate"];
  onMessage: (m: Exclude<LiveMessage, { type: "presence" }>) => void;
  onReconnect: () => void;
}): Watcher[] {
  const [watchers, setWatchers] = useState<Watcher[]>([]);
  // The latest callbacks and rate, read by the socket's handlers without reconnecting when they change.
  const latest = useRef({ onMessage, onReconnect, rate });
  latest.current = { onMessage, onReconnect, rate };

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

    const connect = async () => {
      try {
        const { ticket } = await api<{ ticket: string }>(`/review/live-ticket/${assetId}`, { method: "POST" });
        if (stopped) return;
        const url = new URL(`/api/review/live/${assetId}`, window.location.href);
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
          let m: LiveMessage;
          try {
            m = JSON.parse(String(event.data));
          } catch {
            return;
          }
          if (m.type === "presence") setWatchers(m.watchers);
          else if (m.asset_id === assetId) latest.current.onMessage(m);
        };
        socket.onclose = () => {
          if (ws === socket) ws = null;
          setWatchers([]);
          retry();
        };
      } catch (error) {
        console.error(error);
        retry();
      }
    };
    const retry = () => {
      if (stopped) return;
      timer = setTimeout(connect, backoff(failures++));
    };

    void connect();
    const el = media?.current;
    const kinds = ["pause", "play", "seeked"] as const;
    for (const k of kinds) el?.addEventListener(k, sendPresence);
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const k of kinds) el?.removeEventListener(k, sendPresence);
      ws?.close(1000, "left");
    };
  }, [assetId, media]);

  return watchers;
}
