import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

export const variantTypes = ["initial", "master", "proxy_lowres", "proxy_highres", "watermarked", "untyped"] as const;
export type VariantType = (typeof variantTypes)[number];

/**
 * A variant of a version: one stored object. Rows exist only for finished uploads
 * (an upload in progress is an uploads row), so every variant row is downloadable.
 */
export const variants = sqliteTable(
  "variants",
  {
    variantId: uuidKey("variant_id"),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    storageId: text("storage_id").notNull(),
    objectKey: text("object_key").notNull(),
    name: text("name").notNull(),
    mimeType: text("mime_type").notNull(),
    format: text("format").notNull().default(""),
    variantType: text("variant_type", { enum: variantTypes }).notNull(),
    contentSize: integer("content_size").notNull(),
    fileName: text("file_name").notNull(),
    etag: text("etag").notNull(),
    sha256: text("sha256"),
    previewStorageId: text("preview_storage_id"),
    /** Object key of the preview image (upload-preview), in preview_storage_id. */
    previewKey: text("preview_key"),
    metadataStorageId: text("metadata_storage_id"),
    /** Technical properties (codec, duration, …) filled by the jobs that analyse the file. */
    techProps: text("tech_props", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    userId: text("user_id"),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [
    index("variants_asset_idx").on(t.assetId, t.version),
    index("variants_storage_idx").on(t.storageId),
    // A user's stored bytes (the upload quota) summed from the index alone.
    index("variants_user_size_idx").on(t.userId, t.contentSize),
  ],
);

export type Variant = typeof variants.$inferSelect;
