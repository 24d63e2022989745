import { eq } from "drizzle-orm";
import { defaultStorageId, storages, type Storage } from "../../../db/schema";
import { nowSeconds } from "../../../db/schema/columns";
import type { Db } from "../db";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { r2Driver } from "./r2";
import { s3Driver } from "./s3";
import { decryptCredentials } from "./secrets";
import type { StorageDriver } from "./types";

export * from "./types";

/** The system default storage row (the R2 binding), created on first use. */
export async function ensureDefaultStorage(db: Db): Promise<Storage> {
  const now = nowSeconds();
  const row = {
    storageId: defaultStorageId,
    storageName: "R2 (по умолчанию)",
    kind: "r2" as const,
    setup: {},
    credentialsEnc: null,
    ctime: now,
    mtime: now,
  };
  await db.insert(storages).values(row).onConflictDoNothing();
  return (await db.select().from(storages).where(eq(storages.storageId, defaultStorageId)).get()) ?? row;
}

export async function getStorage(db: Db, storageId: string): Promise<Storage> {
  if (storageId === defaultStorageId) return ensureDefaultStorage(db);
  const row = await db.select().from(storages).where(eq(storages.storageId, storageId)).get();
  if (!row) throw new ApiError("not_found", "Хранилище не найдено");
  return row;
}

/** A default-storage id given to a group, user or asset must name a storage: 400 naming the field otherwise. */
export async function assertStorageExists(db: Db, storageId: string | null | undefined, field: string) {
  if (!storageId || storageId === defaultStorageId) return;
  const row = await db.select({ id: storages.storageId }).from(storages).where(eq(storages.storageId, storageId)).get();
  if (!row) throw new ApiError("validation", `Хранилище ${storageId} не найдено`, [{ field, message: "нет такого хранилища" }]);
}

/**
 * The driver for a storage row. r2 reads and writes through the binding; with S3 credentials its
 * multipart upload goes presigned through R2's S3 endpoint instead. s3 is aws4fetch throughout.
 */
export async function driverFor(env: Env, storage: Storage): Promise<StorageDriver> {
  const creds = storage.credentialsEnc ? await decryptCredentials(env, storage.credentialsEnc) : null;
  const s3 =
    creds && storage.setup.url && storage.setup.bucket
      ? s3Driver({ url: storage.setup.url, bucket: storage.setup.bucket, region: storage.setup.region, ...creds })
      : null;
  if (storage.kind === "s3") {
    if (!s3) throw new ApiError("bad_request", `Хранилище «${storage.storageName}» не настроено: нужны url, bucket и учётные данные`);
    return s3;
  }
  const r2 = r2Driver(env.BUCKET);
  if (!s3) return r2;
  const { presigns, createMultipart, presignPart, completeMultipart, abortMultipart, uploadPart } = s3;
  return { ...r2, presigns, createMultipart, presignPart, completeMultipart, abortMultipart, uploadPart };
}
