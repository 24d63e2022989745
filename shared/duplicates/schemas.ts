import { z } from "@hono/zod-openapi";
import { shortPageTake } from "../lib/params";
import { searchItem } from "../search/schemas";
import { entityId } from "../users/schemas";

/** Duplicates and look-alikes (docs/decisions/058-duplicates-and-look-alikes.md). Shared with the front end: no server imports. */

/** The default radius of «Похожие»: a resized or recompressed copy of a picture lies within it. */
export const DEFAULT_MAX_DISTANCE = 10;

const distance = z.coerce.number({ error: "должно быть числом" }).int("должно быть целым").min(0, "не меньше 0").max(64, "не больше 64");

export const assetIdParam = z.object({ asset_id: entityId });

export const mergeParams = z.object({ asset_id: entityId, target_id: entityId });
export const mergeAnswer = z.object({ asset_id: z.string(), version: z.number().int() }).openapi("DuplicateMerged");

export const placedAsset = z
  .object({
    id: z.string(),
    name: z.string(),
    groups: z.array(
      z.object({ group_id: z.string(), path: z.string().openapi({ description: "names of the readable groups down to it" }) }),
    ),
  })
  .openapi("DuplicateAsset");

export const duplicatesOfAnswer = z
  .object({
    known: z.boolean().openapi({ description: "false until the transcoder has hashed the original" }),
    sha256: z.string().nullable(),
    items: z.array(placedAsset),
  })
  .openapi("DuplicatesOf");

export const duplicatesQuery = z.object({
  skip: z.coerce.number({ error: "должно быть числом" }).int("должно быть целым").min(0, "не меньше 0").max(100_000).default(0),
  take: shortPageTake,
  near: z
    .enum(["true", "false"], { error: "true или false" })
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description: "look-alike sets by perceptual fingerprint instead of identical bytes" }),
  max_distance: distance.default(DEFAULT_MAX_DISTANCE).openapi({ description: "with near=true: the largest Hamming distance" }),
});

const exactSet = z.object({
  sha256: z.string(),
  size: z.number().int(),
  count: z.number().int(),
  freed: z.number().int().openapi({ description: "bytes that removing all copies but one would free" }),
  assets: z.array(placedAsset),
});
const nearSet = z.object({
  count: z.number().int(),
  max_distance: z.number().int(),
  assets: z.array(placedAsset.extend({ distance: z.number().int() })),
});

export const duplicatesAnswer = z
  .object({
    total: z.number().int(),
    freed_total: z.number().int().optional().openapi({ description: "exact sets: bytes freed over every set" }),
    items: z.array(z.union([exactSet, nearSet])),
  })
  .openapi("DuplicateSets");

export const similarBody = z
  .object({
    like: entityId.openapi({ description: "an asset: find those that look like it" }),
    max_distance: distance.default(DEFAULT_MAX_DISTANCE),
    take: z.number({ error: "должно быть числом" }).int("должно быть целым").min(1, "не меньше 1").max(100, "не больше 100").default(20),
  })
  .openapi("SearchSimilarBody");
export type SimilarBody = z.infer<typeof similarBody>;

export const similarItem = searchItem
  .extend({ distance: z.number().int().openapi({ description: "Hamming distance, 0–64" }) })
  .openapi("SimilarItem");
