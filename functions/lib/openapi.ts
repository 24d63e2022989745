import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { validationHook } from "./validation";

/** Every sub-app is made here, so every route validates with zod and reports errors the same way. */
export const createApp = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

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

/** The error responses routes share; spread into createRoute({ responses }). */
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
  ) =>
    createRoute({ method, path, tags, summary, request, responses: { 200: jsonContent(out), ...errors } });
