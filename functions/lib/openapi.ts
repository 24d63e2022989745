import { OpenAPIHono, z } from "@hono/zod-openapi";
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

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: errorEnvelope } } });

/** The error responses routes share; spread into createRoute({ responses }). */
export const errorResponses = {
  400: errorResponse("Invalid input; details name the fields"),
  401: errorResponse("Missing, expired or forged bearer"),
} as const;

export const jsonContent = <T extends z.ZodType>(schema: T, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});
