import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, routeDefiner } from "../lib/openapi";
import { eventsListBody, eventsPage } from "./schemas";
import { listEvents } from "./service";

/** /api/global-events: the events list every change writes to (./service.ts). */
const app = createApp();
const route = routeDefiner(["events"], errorResponses);

app.openapi(
  route(
    "post",
    "/list",
    "Events, newest first, paged by cursor: all for admins, otherwise those on what the caller can read",
    {
      body: jsonBody(eventsListBody),
    },
    eventsPage,
  ),
  async (c) => c.json(await listEvents(getDb(c.env), c.get("auth"), c.req.valid("json")), 200),
);

export default app;
