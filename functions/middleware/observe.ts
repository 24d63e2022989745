import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { Context } from "hono";
import { countSignInFailure, observeRequest } from "../metrics/registry";
import type { AppEnv } from "../lib/env";
import { requestLine } from "../lib/request-line";

/** The route pattern that answered (the last matched handler; middleware is registered as ALL), or null. */
function answeringRoute(c: Context<AppEnv>): string | null {
  const handlers = matchedRoutes(c).filter((r) => r.method !== "ALL");
  return handlers.at(-1)?.path ?? null;
}

const signInRoute = "/api/auth/login";

// A method is a label: one a client made up would be a new series in every isolate it reaches.
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const methodLabel = (method: string) => (knownMethods.has(method) ? method : "OTHER");

/**
 * After every API request: the isolate's counters, a data point in Analytics Engine when the METRICS binding is
 * there, and one JSON log line (functions/lib/request-line.ts). Errors have been turned into answers by onError
 * before this runs, so their statuses are counted too.
 */
export const observe = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  await next();
  const durationMs = performance.now() - started;
  const route = answeringRoute(c);
  const method = methodLabel(c.req.method);
  const status = c.res.status;
  observeRequest({ method, route: route ?? "unmatched", status, durationMs });
  if (route === signInRoute && (status === 401 || status === 429)) countSignInFailure();
  c.env.METRICS?.writeDataPoint({
    indexes: [route ?? "unmatched"],
    blobs: [method, route ?? "unmatched", String(status)],
    doubles: [durationMs],
  });
  const userId = (c.get("auth") as AppEnv["Variables"]["auth"] | undefined)?.userId;
  console.log(requestLine({ requestId: c.get("requestId"), method, route, status, durationMs, userId }));
});
