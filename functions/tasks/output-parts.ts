import { eq } from "drizzle-orm";
import { tasks, variants, type Task } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { driverFor, getStorage } from "../lib/storage";
import { outputNames, stagingKey } from "./outputs";
import { storageFailure } from "../lib/storage/failure";

/**
 * Outputs larger than one request body (Cloudflare caps them at 100 MB) come in parts: the transcoder
 * starts a multipart upload at the run's staging key, PUTs parts of one fixed size (the last may be
 * smaller), then completes it. The Worker keeps no state: the storage's upload id travels with each
 * call, and the key is always derived from the task, run and output name the URL signature covers,
 * so an upload id can only ever address this output's staging key.
 */
async function target(db: Db, env: Env, t: Task, name: string) {
  if (!outputNames[t.operationClass].includes(name))
    throw new ApiError("bad_request", `Неизвестный выход «${name}»`, [{ field: "name", message: "не из этой операции" }]);
  const src = await db.select({ storageId: variants.storageId }).from(variants).where(eq(variants.variantId, t.srcEntity)).get();
  if (!src) throw new ApiError("conflict", "Исходный вариант удалён", [{ field: "status", message: t.status }]);
  return { driver: await driverFor(env, await getStorage(db, src.storageId)), key: stagingKey(t, t.run, name) };
}

const heartbeat = (db: Db, t: Task) => db.update(tasks).set({ heartbeatAt: nowSeconds() }).where(eq(tasks.jobId, t.jobId));

/** The storage refuses an id it does not know (or one of another key): that is the caller's mistake. */
async function storageCall<T>(fn: () => Promise<T>, field: string): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw storageFailure(err, "bad_request", "Хранилище отклонило загрузку частями", [{ field, message: "не принято хранилищем" }]);
  }
}

export async function startOutputParts(db: Db, env: Env, t: Task, name: string, mime: string) {
  const { driver, key } = await target(db, env, t, name);
  const uploadId = await driver.createMultipart(key, mime || "application/octet-stream");
  await heartbeat(db, t);
  return { upload_id: uploadId };
}

export async function putOutputPart(
  db: Db,
  env: Env,
  t: Task,
  name: string,
  uploadId: string,
  part: number,
  size: number,
  body: ReadableStream | null,
) {
  if (!Number.isFinite(size) || size <= 0 || !body)
    throw new ApiError("bad_request", "Нужно тело с Content-Length", [{ field: "Content-Length", message: "обязательное поле" }]);
  const { driver, key } = await target(db, env, t, name);
  const etag = await storageCall(() => driver.uploadPart(key, uploadId, part, body, size), "upload_id");
  await heartbeat(db, t);
  return { part, etag };
}

export async function completeOutputParts(
  db: Db,
  env: Env,
  t: Task,
  name: string,
  uploadId: string,
  parts: { part: number; etag: string }[],
) {
  const { driver, key } = await target(db, env, t, name);
  const sorted = [...parts].sort((a, b) => a.part - b.part);
  if (sorted.some((p, i) => p.part !== i + 1))
    throw new ApiError("bad_request", "Части должны идти подряд с 1", [{ field: "parts", message: "пропуск или повтор номера" }]);
  await storageCall(
    () =>
      driver.completeMultipart(
        key,
        uploadId,
        sorted.map((p) => ({ partNumber: p.part, etag: p.etag })),
      ),
    "parts",
  );
  const info = await driver.head(key);
  if (!info) throw new ApiError("bad_request", "Файл не собран", [{ field: "parts", message: "нет результата" }]);
  await heartbeat(db, t);
  return { name, size: info.size, etag: info.etag };
}
