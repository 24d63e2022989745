import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { getDb } from "../lib/db";
import type { Env } from "../lib/env";
import { createApp, jsonContent } from "../lib/openapi";

const app = createApp();
const tags = ["system"];

const version = z.object({ version: z.string(), build: z.string() }).openapi("Version");
const health = z.object({ status: z.enum(["ok", "degraded"]), d1: z.enum(["ok", "error"]), r2: z.enum(["ok", "error"]) }).openapi("Health");

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
    summary: "Whether D1 and R2 answer",
    responses: { 200: jsonContent(health), 503: jsonContent(health, "A dependency does not answer") },
  }),
  async (c) => {
    const [d1, r2] = await Promise.all([
      getDb(c.env)
        .run(sql`SELECT 1`)
        .then(
          () => "ok" as const,
          () => "error" as const,
        ),
      c.env.BUCKET.head("health-check").then(
        () => "ok" as const,
        () => "error" as const,
      ),
    ]);
    const ok = d1 === "ok" && r2 === "ok";
    return c.json({ status: ok ? ("ok" as const) : ("degraded" as const), d1, r2 }, ok ? 200 : 503);
  },
);

export default app;
