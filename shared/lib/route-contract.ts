import { type RouteConfig, z } from "@hono/zod-openapi";

/**
 * Route definitions as plain objects, shared by the server and the browser (docs/decisions/070-route-contracts.md).
 * A resource's `contract.ts` defines each route here — method, full path under /api, request and answer schemas,
 * `security: []` for the open ones — the server passes it to `app.openapi(route, handler)` and the browser to
 * `call(route, …)` (app/lib/api.ts). No server imports, and only a type from @hono/zod-openapi's runtime: the
 * browser bundles the zod schemas, not the OpenAPI generator.
 */

export const errorEnvelope = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      requestId: z.string(),
    }),
  })
  .openapi("Error");

/** One error answer: the envelope, with what this status means on this route. */
export const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: errorEnvelope } } });

/** The error responses routes share; spread into a route's responses. */
export const errorResponses = {
  400: errorResponse("Invalid input; details name the fields"),
  401: errorResponse("Missing, expired or forged bearer"),
} as const;

/**
 * A resource's error answers: the shared 400 and 401, then what each other status means there
 * (`errorAnswers({ 403: "Admins only", 404: "Not found" })`).
 */
export const errorAnswers = <S extends number>(descriptions: Record<S, string>) => ({
  ...errorResponses,
  ...(Object.fromEntries(Object.entries<string>(descriptions).map(([status, d]) => [status, errorResponse(d)])) as Record<
    S,
    ReturnType<typeof errorResponse>
  >),
});

export const jsonContent = <T extends z.ZodType>(schema: T, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

/**
 * A route as a plain object (what `createRoute` checks, without its runtime): the path is the full one under
 * /api, with `{param}`s, so the sub-app that serves it is mounted at "/".
 */
export const defineRoute = <P extends string, R extends Omit<RouteConfig, "path"> & { path: P }>(route: R): R => route;

/**
 * A resource's route definer: its OpenAPI tag and error answers once, then
 * `route(method, path, summary, request, out)` for each route answering 200 with `out`.
 */
export const routeDefiner =
  <E extends RouteConfig["responses"]>(tags: string[], errors: E) =>
  <M extends "get" | "post" | "patch" | "delete", P extends string, R extends RouteConfig["request"], O extends z.ZodType>(
    method: M,
    path: P,
    summary: string,
    request: R,
    out: O,
  ) => ({ method, path, tags, summary, request, responses: { 200: jsonContent(out), ...errors } });
