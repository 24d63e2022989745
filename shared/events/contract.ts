import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponses, jsonBody, routeDefiner } from "../lib/route-contract";
import { eventsExportQuery, eventsListBody, eventsPage } from "./schemas";

/**
 * /api/global-events, served by ./routes.ts and called by the browser through call()
 * (docs/decisions/070-route-contracts.md): the events list every change writes to.
 */
const route = routeDefiner(["events"], errorResponses);

export const listEvents = route(
  "post",
  "/global-events/list",
  "Events, newest first, paged by cursor: all for admins, otherwise those on what the caller can read",
  {
    body: jsonBody(eventsListBody),
  },
  eventsPage,
);
export const exportEvents = defineRoute({
  method: "get",
  path: "/global-events/export",
  tags: ["events"],
  summary: "The events of a time range, oldest first, as CSV or NDJSON, streamed (admins)",
  request: { query: eventsExportQuery },
  responses: {
    200: {
      description: "CSV (UTF-8 with a byte order mark) or NDJSON",
      content: { "text/csv": { schema: z.string() }, "application/x-ndjson": { schema: z.string() } },
    },
    ...errorResponses,
    403: { description: "Not an admin", content: errorResponses[400].content },
  },
});
