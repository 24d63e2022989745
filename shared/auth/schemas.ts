import { z } from "@hono/zod-openapi";
import { permissionValues } from "../lib/permissions";

export const loginBody = z
  .object({
    user: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(200),
    passwd: z.string({ error: "обязательное поле" }).min(1, "не может быть пустым").max(1024),
  })
  .openapi("LoginBody");

export const tokens = z
  .object({
    bearer: z.string(),
    expire: z.number().int().openapi({ description: "Unix seconds when the bearer expires" }),
  })
  .openapi("Tokens");

export const whoami = z
  .object({ id: z.string(), name: z.string(), login: z.string(), is_admin: z.boolean(), any_acls: z.boolean() })
  .openapi("Whoami");

export const userAbilities = z
  .object({
    is_admin: z.boolean(),
    is_robot: z.boolean(),
    any_acls: z.boolean(),
    chroot_groups: z.array(z.string()),
    admin_area: z.boolean(),
  })
  .openapi("UserAbilities");

export const aclPerms = z.array(z.enum(permissionValues)).openapi("AclPerms");

export const ok = z.object({ ok: z.literal(true) }).openapi("Ok");

export type LoginBody = z.infer<typeof loginBody>;
export type Tokens = z.infer<typeof tokens>;

export const entityAccessOut = z
  .object({ id: z.string(), type: z.enum(["asset", "group"]), acl: z.array(z.enum(permissionValues)) })
  .openapi("EntityAccess");
