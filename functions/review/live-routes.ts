import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/review/contract";
import { joinRoom, liveTicket, ticketHolder } from "./live";

/**
 * /api/review/live-ticket and /api/review/live: the live room of an asset (docs/decisions/061-review-and-approval.md,
 * "Live room"). A browser cannot send headers with a WebSocket, so it first asks for a short-lived ticket with its
 * bearer, then connects with the ticket in the address. Both routes are defined in ./contract.ts.
 */
const app = createApp();

app.openapi(r.liveTicket, async (c) => c.json(await liveTicket(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").asset_id), 200));

app.openapi(r.liveRoom, async (c) => {
  const { asset_id } = c.req.valid("param");
  const who = await ticketHolder(getDb(c.env), c.env, asset_id, c.req.valid("query").ticket);
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket")
    throw new ApiError("upgrade_required", "Нужен запрос WebSocket (Upgrade: websocket)", undefined, { Upgrade: "websocket" });
  return joinRoom(c.env, asset_id, who);
});

export default app;
