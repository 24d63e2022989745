import { z } from "@hono/zod-openapi";
import { entityId, idParam, idsBody, pageQuery } from "../lib/params";
import { ok } from "../auth/schemas";
import { tag } from "./tag-ref";

/** Tags: shared by the API validator and the front end (no server imports). */

export { idParam, idsBody, ok, pageQuery, tag };

export const tagName = z
  .string({ error: "обязательное поле" })
  .trim()
  .min(1, "не может быть пустым")
  .max(100, "не длиннее 100 символов")
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "не может содержать управляющие символы");

export const tagBody = z.object({ tag_name: tagName }).openapi("TagBody");
export const tagCreated = z.object({ tag_id: z.string() }).openapi("TagCreated");

export const tagFilterBody = z
  .object({
    q: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(100, "не длиннее 100 символов"),
    skip: pageQuery.shape.skip,
    take: pageQuery.shape.take,
  })
  .openapi("TagFilterBody");

export const taggedEntity = z.object({
  id: entityId,
  type: z.enum(["asset", "group"], { error: "должен быть asset или group" }),
});

export const tagLinkBody = z
  .object({
    tag_ids: z.array(entityId, { error: "нужен список идентификаторов" }).min(1, "список пуст").max(100, "не больше 100 за раз"),
    entities: z.array(taggedEntity, { error: "нужен список объектов" }).min(1, "список пуст").max(1000, "не больше 1000 за раз"),
  })
  .openapi("TagLinkBody");

export const tagLinkResult = z
  .object({ ok: z.literal(true), count: z.number().int().openapi({ description: "tag–object pairs added or removed" }) })
  .openapi("TagLinkResult");

export type TagLinkBody = z.infer<typeof tagLinkBody>;
export type TagFilterBody = z.infer<typeof tagFilterBody>;
