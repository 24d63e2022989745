import { DurableObject } from "cloudflare:workers";
import { type Attachment, forGuest, presenceForGuest, renewCloseCode, type RoomPush, type Watcher, watcherHeaders } from "./live-watcher";

/**
 * The live review room of one asset (docs/decisions/061-review-and-approval.md, "Live room"): a Durable Object
 * holding the WebSockets of everyone watching the asset, through the Hibernation API, so an idle room costs
 * nothing and its sockets outlive the object's eviction. Only the Worker reaches it: it checks the ticket and
 * the caller's read right before handing a socket over (`/connect`), and pushes the changes the REST API made
 * (`/push`). Who is connected lives in each socket's attachment, so the room keeps nothing in storage.
 * A guest of a review link hears only its version and never an internal comment: each push carries the team's
 * message and the guest's variant, and each socket gets the one it may hear ("Guests in the live room").
 */

/** A watcher's message is small: presence only. Anything longer is dropped unread. */
const maxClientMessage = 256;

export class ReviewRoom extends DurableObject {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/connect") return this.join(request);
    if (pathname === "/push" && request.method === "POST") {
      this.push(JSON.parse(await request.text()) as RoomPush);
      return new Response(null, { status: 204 });
    }
    return new Response("Not found", { status: 404 });
  }

  private join(request: Request): Response {
    const { 0: client, 1: server } = new WebSocketPair();
    const h = request.headers;
    const guestVersion = h.get(watcherHeaders.guestVersion);
    const name = h.get(watcherHeaders.name);
    const watcher: Attachment = {
      user_id: h.get(watcherHeaders.user) ?? "",
      name: name ? decodeURIComponent(name) : null,
      frame: null,
      guest: guestVersion !== null,
      internal: guestVersion === null,
      version: guestVersion === null ? null : Number(guestVersion),
      until: Number(h.get(watcherHeaders.until) ?? 0),
    };
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(watcher);
    this.broadcastPresence();
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    if (typeof message !== "string" || message.length > maxClientMessage) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const m = parsed as { type?: unknown; frame?: unknown };
    if (m?.type !== "presence") return;
    const frame = Number.isSafeInteger(m.frame) && (m.frame as number) >= 0 ? (m.frame as number) : null;
    const watcher = ws.deserializeAttachment() as Attachment;
    if (watcher.frame === frame) return;
    ws.serializeAttachment({ ...watcher, frame });
    this.broadcastPresence();
  }

  async webSocketClose(ws: WebSocket, code: number) {
    this.leave(ws, code);
  }

  async webSocketError(ws: WebSocket) {
    this.leave(ws, 1011);
  }

  /** A socket that went: closed from this side too (the compatibility date predates automatic close replies), then the others told. */
  private leave(ws: WebSocket, code: number) {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {
      // Already closed.
    }
    this.broadcastPresence(ws);
  }

  /**
   * The open sockets that may still hear the room, with their attachments. A socket past its `until` (or of an older
   * attachment without one) is closed with 4001 and sent nothing: its page comes back with a fresh ticket, which
   * checks its session or link and its read right again.
   */
  private listeners(except?: WebSocket): { ws: WebSocket; a: Attachment }[] {
    const now = Date.now();
    const out: { ws: WebSocket; a: Attachment }[] = [];
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === except || ws.readyState !== WebSocket.OPEN) continue;
      const a = ws.deserializeAttachment() as Attachment | null;
      if (!a || !(a.until > now)) {
        try {
          ws.close(renewCloseCode, "renew the ticket");
        } catch {
          // Already closing.
        }
        continue;
      }
      out.push({ ws, a });
    }
    return out;
  }

  private broadcastPresence(except?: WebSocket) {
    const listeners = this.listeners(except);
    const watchers: Watcher[] = listeners.map(({ a }) => ({ user_id: a.user_id, name: a.name, frame: a.frame, guest: a.guest }));
    const team = JSON.stringify({ type: "presence", watchers });
    for (const { ws, a } of listeners)
      send(ws, a.internal ? team : JSON.stringify({ type: "presence", watchers: presenceForGuest(watchers, a.user_id) }));
  }

  /** A change: the team's message to signed-in readers, the guest's variant to guests of its version (if it has one). */
  private push(p: RoomPush) {
    const team = JSON.stringify(p.team);
    const perGuest = new Map<string | null, string>();
    for (const { ws, a } of this.listeners()) {
      if (a.internal) send(ws, team);
      else if (p.guest && a.version === p.version) {
        const text = perGuest.get(a.user_id) ?? JSON.stringify(forGuest(p.guest, a.user_id));
        perGuest.set(a.user_id, text);
        send(ws, text);
      }
    }
  }
}

/** A socket that fails to take a message is closing and will be told goodbye. */
function send(ws: WebSocket, text: string) {
  try {
    ws.send(text);
  } catch {
    // Closing: its webSocketClose follows.
  }
}
