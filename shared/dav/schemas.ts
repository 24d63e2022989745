import { z } from "@hono/zod-openapi";

/** Shapes of the WebDAV-related API (app passwords, dav-path), shared with the front end: no server imports here. */

export const appPassword = z
  .object({ id: z.string(), name: z.string(), ctime: z.number().int(), last_used: z.number().int().nullable() })
  .openapi("AppPassword");
export const newAppPassword = appPassword.extend({ password: z.string() }).openapi("NewAppPassword");
export const createAppPasswordBody = z
  .object({ name: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(100, "не длиннее 100 символов") })
  .openapi("CreateAppPasswordBody");
export const davPathOut = z.object({ path: z.string() }).openapi("DavPath");

export type AppPassword = z.infer<typeof appPassword>;
export type NewAppPassword = z.infer<typeof newAppPassword>;
