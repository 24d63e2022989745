import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime } from "./columns";

/**
 * What the transcoder learned about an original's bytes (docs/decisions/058-duplicates-and-look-alikes.md):
 * the SHA-256 of the stored object, computed while it downloaded it, never the client's claim. One row per
 * analysed variant; rows of replaced or deleted variants are ignored by joining variants.
 */
export const contentHashes = sqliteTable(
  "content_hashes",
  {
    variantId: text("variant_id").primaryKey(),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [index("content_hashes_sha_idx").on(t.sha256), index("content_hashes_asset_idx").on(t.assetId, t.version)],
);

export const perceptualKinds = ["dhash", "phash", "scene"] as const;
export type PerceptualKind = (typeof perceptualKinds)[number];

/**
 * Perceptual fingerprints of a variant: an image's 64-bit difference hash and DCT hash, a video's scene
 * keyframes' difference hashes (seq 0, 1, …). `hash` is 16 hex digits; b0…b8 are its nine bands (seven of
 * 7 bits, the last of 8): two hashes within Hamming distance 8 agree on at least one band, so a band lookup
 * over the indexes finds every candidate within that radius (multi-index hashing).
 */
export const perceptualHashes = sqliteTable(
  "perceptual_hashes",
  {
    variantId: text("variant_id").notNull(),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    kind: text("kind", { enum: perceptualKinds }).notNull(),
    seq: integer("seq").notNull(),
    hash: text("hash").notNull(),
    b0: integer("b0").notNull(),
    b1: integer("b1").notNull(),
    b2: integer("b2").notNull(),
    b3: integer("b3").notNull(),
    b4: integer("b4").notNull(),
    b5: integer("b5").notNull(),
    b6: integer("b6").notNull(),
    b7: integer("b7").notNull(),
    b8: integer("b8").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.kind, t.seq] }),
    index("perceptual_hashes_asset_idx").on(t.assetId, t.version),
    index("perceptual_hashes_b0_idx").on(t.b0),
    index("perceptual_hashes_b1_idx").on(t.b1),
    index("perceptual_hashes_b2_idx").on(t.b2),
    index("perceptual_hashes_b3_idx").on(t.b3),
    index("perceptual_hashes_b4_idx").on(t.b4),
    index("perceptual_hashes_b5_idx").on(t.b5),
    index("perceptual_hashes_b6_idx").on(t.b6),
    index("perceptual_hashes_b7_idx").on(t.b7),
    index("perceptual_hashes_b8_idx").on(t.b8),
  ],
);

export type PerceptualHash = typeof perceptualHashes.$inferSelect;
