import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
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
} from "../../shared/lib/route-contract";
