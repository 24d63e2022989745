import { z } from "@hono/zod-openapi";
import { idParam } from "../groups/schemas";

/** Single sign-on calls (docs/decisions/012-single-sign-on.md) and the admin's view of a user's links. No server imports. */

export const providerParam = z.object({
  provider: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "provider", in: "path" }, description: "name from SSO_PROVIDERS" }),
});

export const startQuery = z.object({ to: z.string().optional().openapi({ description: "path to land on after sign-in" }) });

export const callbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

export const exchangeBody = z
  .object({ token: z.string({ error: "обязательное поле" }).min(1, "не может быть пустым").max(200) })
  .openapi("ExchangeTokenBody");

export const ssoProvider = z.object({ name: z.string(), title: z.string() }).openapi("SsoProvider");

export const ssoLink = z
  .object({
    provider: z.string(),
    title: z.string().openapi({ description: "the provider's title, or its name when no longer configured" }),
    subject: z.string(),
    email: z.string().nullable(),
    ctime: z.number().int(),
    last_login: z.number().int(),
  })
  .openapi("SsoLink");

export const unlinkParams = z.object({
  id: idParam.shape.id,
  provider: providerParam.shape.provider,
});

export type SsoLink = z.infer<typeof ssoLink>;
