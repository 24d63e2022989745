import { createRoute, z } from "@hono/zod-openapi";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp, errorResponses, jsonBody, routeDefiner } from "../lib/openapi";
import { checkExportSize, exportEvents } from "./export";
import { eventsExportQuery, eventsListBody, eventsPage } from "./schemas";
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

const contentTypes = { csv: "text/csv; charset=utf-8", ndjson: "application/x-ndjson; charset=utf-8" } as const;

app.openapi(
  createRoute({
    method: "get",
    path: "/export",
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
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const q = c.req.valid("query");
    const db = getDb(c.env);
    await checkExportSize(db, q);
    const name = `events-${q.from}-${q.to}.${q.format}`;
    // A streamed body: the typed c.text/c.body helpers would need it whole.
    return new Response(exportEvents(db, q), {
      headers: {
        "Content-Type": contentTypes[q.format],
        "Content-Disposition": `attachment; filename="${name}"`,
        "Cache-Control": "no-store",
      },
    }) as never;
  },
);

export default app;
