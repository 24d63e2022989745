import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp } from "../lib/openapi";
import * as r from "../../shared/events/contract";
import { checkExportSize, exportEvents } from "./export";
import { listEvents } from "./service";

/** /api/global-events: the events list every change writes to (./service.ts). */
const app = createApp();

app.openapi(r.listEvents, async (c) => c.json(await listEvents(getDb(c.env), c.get("auth"), c.req.valid("json")), 200));

const contentTypes = { csv: "text/csv; charset=utf-8", ndjson: "application/x-ndjson; charset=utf-8" } as const;

app.openapi(r.exportEvents, async (c) => {
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
});

export default app;
