import { z } from "@hono/zod-openapi";

/** Storages (docs/decisions/008-storages.md): credentials go in, never come out. No server imports. */
export const storageSetup = z
  .object({
    url: z
      .string()
      .url("должен быть URL")
      .refine((u) => /^https?:\/\//.test(u), "только http(s)")
      .optional(),
    bucket: z
      .string()
      .trim()
      .min(3, "не короче 3 символов")
      .max(63, "не длиннее 63 символов")
      .regex(/^[a-z0-9][a-z0-9.-]+$/, "допустимы a-z, 0-9, «.» и «-»")
      .optional(),
    region: z.string().max(40).optional(),
  })
  .openapi("StorageSetup");

const secret = z.string().min(1, "не может быть пустым").max(512);

export const createStorageBody = z
  .object({
    storage_name: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(255),
    kind: z.enum(["r2", "s3"]).default("s3"),
    storage_setup: storageSetup.default({}),
    user: secret.optional(),
    passwd: secret.optional(),
    token: secret.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.kind !== "s3") return;
    if (!b.storage_setup.url) ctx.addIssue({ code: "custom", path: ["storage_setup", "url"], message: "обязательное поле для S3" });
    if (!b.storage_setup.bucket) ctx.addIssue({ code: "custom", path: ["storage_setup", "bucket"], message: "обязательное поле для S3" });
    if (!b.user) ctx.addIssue({ code: "custom", path: ["user"], message: "обязательное поле для S3" });
    if (!b.passwd) ctx.addIssue({ code: "custom", path: ["passwd"], message: "обязательное поле для S3" });
  })
  .openapi("CreateStorageBody");

export const updateStorageBody = z
  .object({
    storage_name: z.string().trim().min(1, "не может быть пустым").max(255).optional(),
    storage_setup: storageSetup.optional(),
    user: secret.optional(),
    passwd: secret.optional(),
    token: secret.nullable().optional(),
    clear_credentials: z.boolean().optional(),
  })
  .openapi("UpdateStorageBody");

export const storage = z
  .object({
    storage_id: z.string(),
    storage_name: z.string(),
    kind: z.enum(["r2", "s3"]),
    storage_setup: z.object({ url: z.string().optional(), bucket: z.string().optional(), region: z.string().optional() }),
    has_credentials: z.boolean().openapi({ description: "credentials are never returned, only whether they are set" }),
    is_default: z.boolean(),
    ctime: z.number().int(),
    mtime: z.number().int(),
  })
  .openapi("Storage");

/** What a non-admin sees of a storage: enough to name it, nothing about where it is. */
export const storageBrief = z.object({ storage_id: z.string(), storage_name: z.string(), is_default: z.boolean() }).openapi("StorageBrief");

export const usage = z
  .object({
    storage_id: z.string(),
    storage_name: z.string(),
    bytes: z.number().int(),
    objects: z.number().int(),
    uploading: z.number().int(),
  })
  .openapi("StorageUsage");

export const forEntity = z
  .object({
    entity_id: z.string(),
    storage_id: z.string(),
    storage_name: z.string(),
    source: z.enum(["asset", "group", "user", "default"]),
  })
  .openapi("StorageForEntity");

export const setForEntityBody = z
  .object({ storage_id: z.string().uuid("должен быть идентификатором").nullable() })
  .openapi("SetStorageForEntity");
