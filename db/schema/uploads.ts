import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";
import { variantTypes } from "./variants";

export const uploadModes = ["worker", "presigned"] as const;
export const uploadStates = ["active", "completing", "completed", "aborted"] as const;

/**
 * A multipart upload in progress (docs/decisions/007-uploads.md). State lives here, not in the
 * browser, so an upload resumes after a closed tab or a restart; the partial unique index makes a
 * second upload racing the first for the same version and variant type fail.
 */
export const uploads = sqliteTable(
  "uploads",
  {
    uploadId: uuidKey("upload_id"),
    assetId: text("asset_id").notNull(),
    version: integer("version").notNull(),
    /** The version did not exist at start: complete creates it, abort leaves nothing behind. */
    newVersion: integer("new_version", { mode: "boolean" }).notNull(),
    /** The asset had no version at start: aborting its only upload deletes the asset. */
    newAsset: integer("new_asset", { mode: "boolean" }).notNull(),
    variantId: text("variant_id").notNull(),
    variantType: text("variant_type", { enum: variantTypes }).notNull(),
    /** The variant's name when complete makes it (an extra variant named by the user); null: its type. */
    variantName: text("variant_name"),
    storageId: text("storage_id").notNull(),
    objectKey: text("object_key").notNull(),
    multipartId: text("multipart_id").notNull(),
    mode: text("mode", { enum: uploadModes }).notNull(),
    size: integer("size").notNull(),
    partSize: integer("part_size").notNull(),
    partCount: integer("part_count").notNull(),
    fileName: text("file_name").notNull(),
    mime: text("mime").notNull(),
    sha256: text("sha256"),
    state: text("state", { enum: uploadStates }).notNull(),
    /** Bytes that passed through the Worker (0 on the presigned path; the bench prints it). */
    workerBytes: integer("worker_bytes").notNull().default(0),
    userId: text("user_id").notNull(),
    ctime: unixTime("ctime").notNull(),
    mtime: unixTime("mtime").notNull(),
    expiresAt: unixTime("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("uploads_slot_unique")
      .on(t.assetId, t.version, t.variantType)
      .where(sql`state IN ('active', 'completing') AND variant_type <> 'untyped'`),
    uniqueIndex("uploads_new_version_unique").on(t.assetId, t.version).where(sql`state IN ('active', 'completing') AND new_version = 1`),
    index("uploads_asset_idx").on(t.assetId, t.state),
    index("uploads_expiry_idx").on(t.state, t.expiresAt),
    // A user's unfinished uploads count against the quota: summed from the index alone.
    index("uploads_user_state_idx").on(t.userId, t.state, t.size),
  ],
);

/** A part the storage holds (worker path: written by the part PUT; presigned path: reported by the client). */
export const uploadParts = sqliteTable(
  "upload_parts",
  {
    uploadId: text("upload_id").notNull(),
    partNumber: integer("part_number").notNull(),
    size: integer("size").notNull(),
    etag: text("etag").notNull(),
    ctime: unixTime("ctime").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.partNumber] })],
);

export type Upload = typeof uploads.$inferSelect;
