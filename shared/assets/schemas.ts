import { z } from "@hono/zod-openapi";
import { entityId as uuid, idParam, idsBody } from "../lib/params";
import { tag } from "../tags/tag-ref";
import { appliedRule } from "../users/schemas";

/** Assets, versions, variants, classes: shared by the API validator and the front end (no server imports). */

export const variantTypes = ["initial", "master", "proxy_lowres", "proxy_highres", "watermarked", "untyped"] as const;

/** Ids are checked as everywhere in the API (shared/lib/params.ts). */
export { idParam, idsBody, uuid };
export const versionNumber = z.coerce.number({ error: "должен быть числом" }).int("должен быть целым").min(1, "нумерация с 1");

/** POST /api/assets/version/{id}: prepare an upload into the asset (its answer is shared/lib/upload-server.ts). */
export const versionUploadBody = z
  .object({ to_group: uuid.optional(), variant_type: z.enum(variantTypes).optional() })
  .openapi("VersionUploadBody");

/** A file or asset name: no path separators or control characters (they break downloads and the disk mount). */
export const fileName = z
  .string({ error: "обязательное поле" })
  .trim()
  .min(1, "не может быть пустым")
  .max(255, "не длиннее 255 символов")
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .refine((s) => !/[/\\\u0000-\u001f\u007f]/.test(s), "не может содержать «/», «\\» и управляющие символы")
  .refine((s) => s !== "." && s !== "..", "не может быть «.» или «..»");

export const mimeType = z
  .string({ error: "обязательное поле" })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/, "должен быть MIME-типом вида type/subtype");

export const createAssetBody = z
  .object({
    asset_name: fileName,
    asset_mime: mimeType,
    asset_class: uuid.optional(),
    in_group: uuid.optional().openapi({ description: "group to place the asset in (needs create there)" }),
  })
  .openapi("CreateAssetBody");

export const createAssetListBody = z
  .object({ assets: z.array(createAssetBody).min(1, "список пуст").max(100, "не больше 100 за раз") })
  .openapi("CreateAssetListBody");

export const patchAssetBody = z
  .object({ asset_name: fileName.optional(), asset_mime: mimeType.optional(), asset_class: uuid.nullable().optional() })
  .refine((b) => Object.keys(b).length > 0, "нужно хотя бы одно поле")
  .openapi("PatchAssetBody");

export const variantBrief = z.object({ id: z.string(), name: z.string(), type: z.enum(variantTypes) });

export const asset = z
  .object({
    asset_id: z.string(),
    name: z.string(),
    owner: z.string(),
    creator: z.string(),
    ctime: z.number().int(),
    mtime: z.number().int(),
    atime: z.number().int(),
    mimetype: z.string(),
    tags: z.array(tag).openapi({ description: "its tags, by name (POST /api/tags/attach, /detach)" }),
    default_storage: z.string().nullable(),
    class: z.string().nullable(),
    asset_links: z.array(z.string()).openapi({ description: "groups the asset is in" }),
    asset_access: z.array(z.string()).openapi({ description: "the caller's permissions" }),
    asset_latest_version: z.number().int().nullable(),
    asset_latest_version_variants: z.array(variantBrief),
  })
  .openapi("Asset");

export const created = z.object({ asset_id: z.string(), ctime: z.number().int() }).openapi("AssetCreated");

export const version = z
  .object({
    version: z.number().int(),
    desc: z.string(),
    ctime: z.number().int(),
    user_id: z.string().nullable(),
    variant_id: z.string().nullable(),
    variant_name: z.string().nullable(),
    variant_type: z.enum(variantTypes).nullable(),
  })
  .openapi("Version");

export const variant = z
  .object({
    variant_id: z.string(),
    asset_id: z.string(),
    version: z.number().int(),
    storage: z.string(),
    name: z.string(),
    mime_type: z.string(),
    format: z.string(),
    variant_type: z.enum(variantTypes),
    content_size: z.number().int(),
    file_name: z.string(),
    sha256: z.string().nullable(),
    preview_storage_id: z.string().nullable(),
    metadata_storage_id: z.string().nullable(),
    user_id: z.string().nullable(),
    ctime: z.number().int(),
  })
  .openapi("Variant");

export const assetClassBody = z
  .object({
    name: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(255, "не длиннее 255 символов"),
    def_fields: z
      .array(uuid)
      .max(200, "не больше 200 полей")
      .refine((ids) => new Set(ids).size === ids.length, "поля не должны повторяться")
      .optional()
      .openapi({ description: "field template ids, in the order the asset form shows them" }),
  })
  .openapi("AssetClassBody");

export const assetClass = z.object({ id: z.string(), name: z.string(), def_fields: z.array(z.string()) }).openapi("AssetClass");

export const ok = z.object({ ok: z.literal(true) }).openapi("AssetOk");

export const playLink = z.object({ link: z.string(), expire: z.number().int(), range: z.boolean() }).openapi("PlayLink");
export const previewLinks = z.array(z.object({ id: z.string(), variant_id: z.string().nullable(), preview: z.string().nullable() }));
export const assetGroups = z.array(z.object({ group_id: z.string(), group_name: z.string() }));
export const contentSize = z.object({
  asset_id: z.string(),
  version: z.number().nullable(),
  content_size: z.number(),
  version_size: z.number(),
  total_size: z.number(),
});
export const techFields = z.array(z.object({ name: z.string(), value: z.unknown() }));

/**
 * Everything the asset info screen shows, in one answer (GET /api/asset/info/{id}). `asset.asset_access` is
 * the caller's permissions as the access engine decides them; the screen reads it and never re-derives it.
 */
export const assetInfo = z
  .object({
    asset,
    versions: z
      .array(
        z.object({
          version: z.number().int(),
          desc: z.string(),
          ctime: z.number().int(),
          user_id: z.string().nullable().openapi({ description: "who made the version (names: in `names` where the caller may know it)" }),
          variants: z.array(variant),
        }),
      )
      .openapi({ description: "newest first; a version without variants has an empty list" }),
    groups: assetGroups.openapi({ description: "the groups holding the asset that the caller can read" }),
    tech: z.object({ variant_id: z.string().nullable(), fields: techFields }).openapi({
      description: "technical fields of the variant a viewer shows of the latest version",
    }),
    users: z.array(appliedRule).nullable().openapi({ description: "who has what on the asset; null without the acl right" }),
    names: z
      .record(z.string(), z.string())
      .openapi({ description: "names of the owner, the creator and the versions' authors, where the caller may know them" }),
  })
  .openapi("AssetInfo");

export type CreateAssetBody = z.infer<typeof createAssetBody>;
export type PatchAssetBody = z.infer<typeof patchAssetBody>;
export type AssetClassBody = z.infer<typeof assetClassBody>;
