import { createRoute, OpenAPIHono, type RouteConfig, type z } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { jsonContent } from "./route-contract";
import { validationHook } from "./validation";

/** Every sub-app is made here, so every route validates with zod and reports errors the same way. */
export const createApp = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

export {
  defineRoute,
  errorAnswers,
  errorEnvelope,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonContent,
} from "./route-contract";

/**
 * A resource's route definer for routes still defined next to their handlers (relative to the sub-app's mount):
 * its OpenAPI tag and error answers once, then `route(method, path, summary, request, out)` for each route
 * answering 200 with `out`. Routes the browser calls move to the resource's contract.ts (./route-contract.ts).
 */
export const routeDefiner =
  <E extends RouteConfig["responses"]>(tags: string[], errors: E) =>
  <M extends "get" | "post" | "patch" | "delete", P extends string, R extends RouteConfig["request"], O extends z.ZodType>(
    method: M,
    path: P,
    summary: string,
    request: R,
    out: O,
  ) =>
    createRoute({ method, path, tags, summary, request, responses: { 200: jsonContent(out), ...errors } });
