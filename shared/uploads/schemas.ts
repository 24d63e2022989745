import { z } from "@hono/zod-openapi";
import { fileName, mimeType, uuid, variantTypes, versionNumber } from "../assets/schemas";
import { uploadServer } from "../lib/upload-server";

/** The upload protocol (docs/decisions/007-uploads.md); no server imports, reusable by the front end's upload worker. */

export const MiB = 1024 * 1024;
/** Cloudflare caps a request body at 100 MB; no part (one request) may exceed 95 MB. */
export const maxPartSize = 95 * 1000 * 1000;
/** S3 and R2 require every part but the last to be at least 5 MiB. */
export const minPartSize = 5 * MiB;
export const defaultPartSize = 16 * MiB;
export const maxParts = 10_000;

/** The upload server a client sends to (shared/lib/upload-server.ts). */
export { uploadServer };

export const startBody = z
  .object({
    asset_id: uuid,
    size: z
      .number({ error: "обязательное поле" })
      .int("должен быть целым")
      .min(0, "не может быть отрицательным")
      .max(maxParts * maxPartSize, "слишком большой файл"),
    name: fileName,
    mime: mimeType,
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, "должен быть SHA-256 в hex")
      .transform((s) => s.toLowerCase())
      .optional(),
    version: versionNumber.optional().openapi({ description: "target version; absent = a new version" }),
    variant_type: z.enum(variantTypes).optional(),
    variant_name: z
      .string()
      .trim()
      .min(1, "не может быть пустым")
      .max(255, "не длиннее 255 символов")
      .optional()
      .openapi({ description: "the variant's name; absent = its type" }),
    keep_asset: z
      .boolean()
      .optional()
      .openapi({ description: "the asset was made empty on purpose: aborting its first upload keeps it (default: deletes it)" }),
    part_size: z
      .number()
      .int()
      .min(minPartSize, `не меньше ${minPartSize} байт`)
      .max(maxPartSize, `не больше ${maxPartSize} байт`)
      .optional(),
    to_group: uuid.optional(),
  })
  .openapi("UploadStartBody");

export const upload = z
  .object({
    upload_id: z.string(),
    asset_id: z.string(),
    version: z.number().int(),
    variant_id: z.string(),
    variant_type: z.enum(variantTypes),
    state: z.enum(["active", "completing", "completed", "aborted"]),
    mode: z.enum(["worker", "presigned"]),
    size: z.number().int(),
    part_size: z.number().int(),
    part_count: z.number().int(),
    name: z.string(),
    parts: z.array(z.object({ part: z.number().int(), size: z.number().int(), etag: z.string() })),
    missing: z.array(z.number().int()),
    worker_bytes: z.number().int(),
    expires_at: z.number().int(),
  })
  .openapi("Upload");

export const partsBody = z
  .object({ parts: z.array(z.number().int().min(1), { error: "нужен список номеров частей" }).min(1, "список пуст").max(1000) })
  .openapi("UploadTargetsBody");

export const partTarget = z
  .object({ part: z.number().int(), method: z.literal("PUT"), url: z.string(), size: z.number().int(), expires: z.number().int() })
  .openapi("UploadPartTarget");

export const partReport = z.object({ etag: z.string({ error: "обязательное поле" }).min(1).max(200) }).openapi("UploadPartReport");

export const uploadIdParam = z.object({ id: uuid.openapi({ param: { name: "id", in: "path" } }) });
export const partParams = z.object({
  id: uuid.openapi({ param: { name: "id", in: "path" } }),
  n: z.coerce
    .number({ error: "должен быть числом" })
    .int("должен быть целым")
    .min(1, "нумерация с 1")
    .openapi({ param: { name: "n", in: "path" } }),
});
