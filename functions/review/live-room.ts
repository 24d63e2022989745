import { DurableObject } from "cloudflare:workers";
import { type Watcher, watcherHeaders } from "./live-watcher";

/**
 * The live review room of one asset (docs/decisions/061-review-and-approval.md, "Live room"): a Durable Object
 * holding the WebSockets of everyone watching the asset, through the Hibernation API, so an idle room costs
 * nothing and its sockets outlive the object's eviction. Only the Worker reaches it: it checks the ticket and
 * the caller's read right before handing a socket over (`/connect`), and pushes the changes the REST API made
 * (`/push`). Who is connected lives in each socket's attachment, so the room keeps nothing in storage.
 */

/** A watcher's message is small: presence only. Anything longer is dropped unread. */
const maxClientMessage = 256;

export class ReviewRoom extends DurableObject {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/connect") return this.join(request);
    if (pathname === "/push" && request.method === "POST") {
      this.broadcast(await request.text());
      return new Response(null, { status: 204 });
    }
    return new Response("Not found", { status: 404 });
  }

  private join(request: Request): Response {
    const { 0: client, 1: server } = new WebSocketPair();
    const watcher: Watcher = {
      user_id: request.headers.get(watcherHeaders.user) ?? "",
      name: decodeURIComponent(request.headers.get(watcherHeaders.name) ?? ""),
      frame: null,
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
    const watcher = ws.deserializeAttachment() as Watcher;
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

  private watchers(except?: WebSocket): Watcher[] {
    return this.ctx
      .getWebSockets()
      .filter((ws) => ws !== except && ws.readyState === WebSocket.OPEN)
      .map((ws) => ws.deserializeAttachment() as Watcher);
  }

  private broadcastPresence(except?: WebSocket) {
    this.broadcast(JSON.stringify({ type: "presence", watchers: this.watchers(except) }), except);
  }

  /** One text to every open socket; a socket that fails to take it is closing and will be told goodbye. */
  private broadcast(text: string, except?: WebSocket) {
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === except) continue;
      try {
        ws.send(text);
      } catch {
        // Closing: its webSocketClose follows.
      }
    }
  }
}
