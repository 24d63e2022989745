import { createRoute, z } from "@hono/zod-openapi";
import { requireAdmin } from "../lib/auth";
import { getDb } from "../lib/db";
import { createApp, errorResponses } from "../lib/openapi";
import { databaseFamilies } from "./gauges";
import { contentType, render } from "./prometheus";
import { isolateFamilies } from "./registry";

/** GET /api/metrics: Prometheus text for admins and admin robots (there are no token scopes; decision 044). */
const app = createApp();
const forbidden = { description: "Not an admin", content: errorResponses[400].content };

app.openapi(
  createRoute({
    method: "get",
    path: "/metrics",
    tags: ["system"],
    summary: "Metrics in the Prometheus text format: this isolate's request counters and the database's gauges (admins)",
    responses: {
      200: { description: "Prometheus text format 0.0.4", content: { "text/plain": { schema: z.string() } } },
      ...errorResponses,
      403: forbidden,
    },
  }),
  async (c) => {
    requireAdmin(c.get("auth"));
    const text = render([...isolateFamilies(), ...(await databaseFamilies(getDb(c.env)))]);
    return c.text(text, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  },
);

export default app;
