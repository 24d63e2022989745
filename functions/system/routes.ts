import { createRoute, z } from "@hono/zod-openapi";
import type { Env } from "../lib/env";
import { createApp, jsonContent } from "../lib/openapi";
import { health } from "./health";

const app = createApp();
const tags = ["system"];

const version = z.object({ version: z.string(), build: z.string() }).openapi("Version");
const healthOut = z
  .object({
    status: z.enum(["ok", "degraded"]),
    d1: z.enum(["ok", "error"]),
    r2: z.enum(["ok", "error"]),
    transcoder: z.enum(["ok", "error", "off"]).openapi({ description: "off: no transcoder configured, tasks wait" }),
    queue: z
      .object({ inqueue: z.number().int(), running: z.number().int(), failed: z.number().int() })
      .nullable()
      .openapi({ description: "Tasks waiting, running and failed (dead letters); null when D1 does not answer" }),
  })
  .openapi("Health");

/** The front end's build stamp (build/client/version.json), so the API and the page agree on one version. */
async function readBuildVersion(env: Env) {
  const res = await env.ASSETS.fetch("https://assets.local/version.json");
  if (!res.ok) return { version: "unknown", build: "unknown" };
  return version.parse(await res.json());
}

app.openapi(
  createRoute({
    method: "get",
    path: "/version",
    security: [],
    tags,
    summary: "Product version and build id",
    responses: { 200: jsonContent(version) },
  }),
  async (c) => c.json(await readBuildVersion(c.env), 200),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/health",
    security: [],
    tags,
    summary: "Whether D1 and R2 answer (status), the transcoder's state and the task backlog",
    responses: { 200: jsonContent(healthOut), 503: jsonContent(healthOut, "A dependency does not answer") },
  }),
  async (c) => {
    const body = await health(c.env);
    return c.json(body, body.status === "ok" ? 200 : 503);
  },
);

export default app;
