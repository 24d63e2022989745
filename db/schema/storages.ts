import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unixTime, uuidKey } from "./columns";

export const storageKinds = ["r2", "s3"] as const;
export type StorageKind = (typeof storageKinds)[number];

/** Where the system default storage (the R2 binding) lives; its row is created on first use. */
export const defaultStorageId = "00000000-0000-0000-0000-000000000001";

/**
 * A place bytes live (docs/decisions/008-storages.md). kind r2 = the Worker's R2 binding; s3 = any
 * S3-compatible endpoint. With S3 credentials (also allowed on r2: R2's S3 endpoint) uploads go
 * presigned straight to the bucket. Credentials are AES-GCM encrypted (functions/lib/storage/secrets.ts)
 * and never returned (docs/decisions/008-storages.md).
 */
export const storages = sqliteTable("storages", {
  storageId: uuidKey("storage_id"),
  storageName: text("storage_name").notNull(),
  kind: text("kind", { enum: storageKinds }).notNull(),
  /** { url, bucket, region? } — the public part of storage_setup. */
  setup: text("setup", { mode: "json" }).$type<StorageSetup>().notNull(),
  /** base64(iv || AES-GCM ciphertext) of { user, passwd, token? }; null = no S3 credentials. */
  credentialsEnc: text("credentials_enc"),
  ctime: unixTime("ctime").notNull(),
  mtime: unixTime("mtime").notNull(),
});

export interface StorageSetup {
  url?: string;
  bucket?: string;
  region?: string;
}

export type Storage = typeof storages.$inferSelect;
