import { z } from "@hono/zod-openapi";
import { ok } from "../auth/schemas";
import { entityId, idParam, pageQuery } from "../groups/schemas";

/** The taxonomy: shared by the API validator and the front end (no server imports). */

export { idParam, ok };

export const taxonName = z
  .string({ error: "обязательное поле" })
  .trim()
  .min(1, "не может быть пустым")
  .max(100, "не длиннее 100 символов")
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .refine((s) => !/[/\u0000-\u001f\u007f]/.test(s), "не может содержать «/» и управляющие символы");

/** "Природа/Животные/Кошки": names from the top, split at "/"; empty parts (a leading or doubled "/") are skipped. */
export const taxonPath = z
  .string({ error: "обязательное поле" })
  .max(3300, "слишком длинный путь")
  .transform((p) => p.split("/").filter((s) => s.trim() !== ""))
  .pipe(z.array(taxonName).min(1, "не может быть пустым").max(32, "не глубже 32 уровней"));

export const createTaxonBody = z.object({ path: taxonPath }).openapi("CreateTaxonBody");
export const taxonCreated = z
  .object({ taxon_id: z.string().openapi({ description: "the last taxon of the path" }) })
  .openapi("TaxonCreated");

export const changeTaxonBody = z
  .object({
    name: taxonName.optional(),
    parent: entityId.nullable().optional().openapi({ description: "the new parent; null makes it a top-level taxon" }),
  })
  .refine((b) => b.name !== undefined || b.parent !== undefined, "нечего менять")
  .openapi("ChangeTaxonBody");

export const taxon = z
  .object({
    taxon_id: z.string(),
    name: z.string(),
    parent: z.string().nullable().openapi({ description: "null for a top-level taxon" }),
    depth: z.number().int().openapi({ description: "1 for a top-level taxon" }),
  })
  .openapi("Taxon");

export const memberBody = z.object({ objectId: entityId }).openapi("TaxonMemberBody");

export const listMembersQuery = z.object({
  descendants: z
    .enum(["true", "false"], { error: "должно быть true или false" })
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description: "members of the whole subtree, each object once" }),
  skip: pageQuery.shape.skip,
  take: pageQuery.shape.take,
});

export const taxonMember = z.object({
  entity_id: z.string(),
  entity_type: z.enum(["asset", "group"]),
  name: z.string(),
});
export const taxonMembersPage = z
  .object({ total: z.number().int(), items: z.array(taxonMember) })
  .openapi("TaxonMembersPage", { description: "only objects the caller can read; by name" });

export type ChangeTaxonBody = z.infer<typeof changeTaxonBody>;
export type ListMembersQuery = z.infer<typeof listMembersQuery>;
