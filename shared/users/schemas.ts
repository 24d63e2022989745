import { z } from "@hono/zod-openapi";
import { permissionValues } from "../lib/permissions";
import { entityId, idParam, pageQuery } from "../lib/params";

/** Users, access rules, tokens and per-user settings. Shared with the front end: no server imports. */
export { entityId, idParam, pageQuery };

const text = (max: number) =>
  z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(max, `не длиннее ${max} символов`);
/** Bytes; null = the installation's default quota. */
const quota = z
  .number({ error: "нужно целое число байт или null" })
  .int("нужно целое число байт")
  .min(0, "не может быть отрицательной")
  .max(Number.MAX_SAFE_INTEGER)
  .nullable();
const password = z.string({ error: "обязательное поле" }).min(8, "не короче 8 символов").max(1024);

export const user = z
  .object({
    user_id: z.string(),
    user_name: z.string(),
    enabled: z.boolean(),
    login: z.string(),
    chroot_groups: z.array(z.string()),
    default_storage: z.string().nullable(),
    is_robot: z.boolean(),
    acl_count: z.number().int(),
    quota: z.number().int().nullable().openapi({ description: "bytes the user may store; null = the default (DEFAULT_QUOTA_BYTES)" }),
    quota_used: z.number().int().openapi({ description: "bytes counted against the quota: stored variants and unfinished uploads" }),
  })
  .openapi("User");

export const createUserBody = z
  .object({
    user_name: text(200),
    user_login: text(200),
    user_passwd: password,
    enabled: z.boolean({ error: "обязательное поле (true или false)" }),
    chroot_groups: z.array(entityId).max(50).default([]),
    default_storage: z.string().max(200).nullable().optional(),
    is_robot: z.boolean().default(false),
    quota: quota.optional(),
  })
  .openapi("CreateUserBody");

export const updateUserBody = z
  .object({
    user_name: text(200).optional(),
    user_login: text(200).optional(),
    user_passwd: password.optional(),
    enabled: z.boolean().optional(),
    chroot_groups: z.array(entityId).max(50).optional(),
    default_storage: z.string().max(200).nullable().optional(),
    is_robot: z.boolean().optional(),
    quota: quota.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "нечего менять")
  .openapi("UpdateUserBody");

export const usersQuery = pageQuery.extend({
  enabled: z
    .enum(["true", "false"], { error: "должно быть true или false" })
    .optional()
    .openapi({ description: "active or inactive users" }),
  q: z.string().max(200).optional(),
  group: entityId.optional().openapi({ description: "only the users who are members of this group (a team)" }),
});

export const createdUser = z.object({ user_id: z.string() }).openapi("UserCreated");

export const aclValues = z
  .array(z.enum(permissionValues, { error: `допустимые значения: ${permissionValues.join(", ")}` }), {
    error: "нужен список прав",
  })
  .min(1, "нужно хотя бы одно право");

export const rule = z
  .object({
    rule_id: z.string(),
    subj_id: z.string(),
    subj_type: z.enum(["user", "group"]),
    obj_id: z.string(),
    obj_type: z.enum(["asset", "group"]),
    acl: z.array(z.string()),
    subj_name: z.string().nullable(),
    obj_name: z.string().nullable(),
  })
  .openapi("AccessRule");

export const appliedRule = rule
  .extend({
    subj_id: z.string().nullable().openapi({ description: "null (with subj_name): a team the caller cannot read" }),
    obj_id: z.string().nullable().openapi({ description: "null (with obj_name): set on a group above what the caller can read" }),
    inherited: z.boolean().openapi({ description: "set on an ancestor group" }),
  })
  .openapi("AppliedRule");

export const entityUserAccessOut = z.array(z.object({ id: z.string(), rules: z.array(appliedRule) })).openapi("EntityUserAccess");

export const createRuleBody = z.object({ subj: entityId, obj: entityId, acl: aclValues }).openapi("CreateRuleBody");
export const updateRuleBody = z.object({ acl: aclValues }).openapi("UpdateRuleBody");
export const rulesQuery = pageQuery.extend({ subj: entityId.optional(), obj: entityId.optional() });

export const settings = z.record(z.string(), z.unknown()).openapi("UiSettings");
export const bookmarksBody = z.array(entityId).max(200, "не больше 200 закладок").openapi("BookmarksBody");
export const bookmark = z.object({ group_id: z.string(), group_name: z.string() }).openapi("Bookmark");

export const team = z.object({ group_id: z.string(), group_name: z.string() }).openapi("Team");
export const membershipBody = z.object({ groups: z.array(entityId).max(200) }).openapi("MembershipBody");

export const tokenBody = z
  .object({
    name: text(100),
    expires_in_days: z.number().int().min(1).max(3650).optional().openapi({ description: "never expires when absent" }),
  })
  .openapi("TokenBody");
export const tokenInfo = z
  .object({
    token_id: z.string(),
    name: z.string(),
    ctime: z.number().int(),
    expires_at: z.number().int().nullable(),
    revoked_at: z.number().int().nullable(),
  })
  .openapi("ApiToken");
export const issuedToken = tokenInfo
  .extend({ token: z.string().openapi({ description: "shown once; only its hash is kept" }) })
  .openapi("IssuedToken");
export const tokenParams = z.object({
  id: idParam.shape.id,
  tokenId: entityId.openapi({ param: { name: "tokenId", in: "path" } }),
});
/** DELETE /api/user/{id}: who takes over what the user owns (decision 056). */
export const deleteUserQuery = z.object({
  heir: entityId
    .optional()
    .openapi({ description: "the user who takes over the deleted user's assets, groups, workflows and templates; absent: the caller" }),
});

export const ok = z.object({ ok: z.literal(true) }).openapi("UserOk");

export type CreateUserBody = z.infer<typeof createUserBody>;
export type UpdateUserBody = z.infer<typeof updateUserBody>;
