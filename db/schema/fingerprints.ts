import { sql } from "drizzle-orm";
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
 * keyframes' difference hashes (seq 0, 1, …). `hash` is 16 hex digits; b0…b2 are its three bands (21, 21 and
 * 22 bits, functions/duplicates/hashes.ts): two hashes within Hamming distance d are within ⌊d/3⌋ bits on at least
 * one band, so looking up the band values around the query's finds every candidate (multi-index hashing). The
 * band indexes hold only the compared kinds and carry asset and hash, so a lookup never reads the table.
 */
/** The kinds look-alikes are ranked on (pHash is stored, not compared): the only rows the band indexes hold. */
const compared = sql`kind IN ('dhash', 'scene')`;

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
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.kind, t.seq] }),
    index("perceptual_hashes_asset_idx").on(t.assetId, t.version),
    index("perceptual_hashes_b0_idx").on(t.b0, t.assetId, t.hash).where(compared),
    index("perceptual_hashes_b1_idx").on(t.b1, t.assetId, t.hash).where(compared),
    index("perceptual_hashes_b2_idx").on(t.b2, t.assetId, t.hash).where(compared),
  ],
);

export type PerceptualHash = typeof perceptualHashes.$inferSelect;
