import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { errorResponse, createApp, errorResponses } from "../lib/openapi";
import * as r from "./contract";
import { joinRoom, liveTicket, ticketHolder } from "./live";
import { assetParam } from "./schemas";

/**
 * /api/review/live-ticket and /api/review/live: the live room of an asset (docs/decisions/061-review-and-approval.md,
 * "Live room"). A browser cannot send headers with a WebSocket, so it first asks for a short-lived ticket with its
 * bearer, then connects with the ticket in the address.
 */
const app = createApp();

app.openapi(r.liveTicket, async (c) =>
  c.json(await liveTicket(getDb(c.env), c.env, c.get("auth"), c.req.valid("param").asset_id), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/review/live/{asset_id}",
    tags: ["review"],
    summary:
      "The asset's live review room over a WebSocket: presence, and comment.created|updated|deleted and approval.changed as the REST lists show them",
    // The ticket is the credential (a WebSocket carries no Authorization header); it names the session and the asset.
    security: [],
    request: {
      params: assetParam,
      query: z.object({
        ticket: z.string().max(800).optional().openapi({
          description: "From POST /api/review/live-ticket/{asset_id}, or a guest's from POST /api/review/guest/{link_id}/live-ticket",
        }),
      }),
    },
    responses: {
      101: { description: "Switching to the WebSocket" },
      400: errorResponses[400],
      401: errorResponse(
        "No ticket, or a forged, expired or other asset's one, or its session ended or lost read on the asset, or its review link is no longer usable",
      ),
      426: errorResponse("Not a WebSocket upgrade"),
    },
  }),
  async (c) => {
    const { asset_id } = c.req.valid("param");
    const who = await ticketHolder(getDb(c.env), c.env, asset_id, c.req.valid("query").ticket);
    if (c.req.header("Upgrade")?.toLowerCase() !== "websocket")
      throw new ApiError("upgrade_required", "Нужен запрос WebSocket (Upgrade: websocket)", undefined, { Upgrade: "websocket" });
    return joinRoom(c.env, asset_id, who);
  },
);

export default app;
