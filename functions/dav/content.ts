import { eq } from "drizzle-orm";
import { uploads } from "../../db/schema";
import { createAssets, deleteAssets } from "../assets/service";
import { createAssetBody } from "../../shared/assets/schemas";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { abortUpload, completeUpload, putPart } from "../uploads/complete";
import { expectedPartSize, startUpload } from "../uploads/service";

/**
 * Bytes into an asset through the one upload pipeline (functions/uploads): a new version is started,
 * the body is cut into the upload's parts as it arrives (each part streamed to storage with its exact
 * length), then completed. A failure aborts the upload (which drops an asset this upload created).
 */
export async function writeContent(
  db: Db,
  env: Env,
  auth: AuthUser,
  target: { assetId: string; groupId: string | undefined; name: string; mime: string },
  body: ReadableStream | null,
  size: number,
) {
  const up = await startUpload(db, env, auth, {
    asset_id: target.assetId,
    size,
    name: target.name,
    mime: target.mime,
    to_group: target.groupId,
  });
  try {
    const reader = (body ?? new Blob([]).stream()).getReader();
    const slicer = new Slicer(reader);
    const row = (await db.select().from(uploads).where(eq(uploads.uploadId, up.upload_id)).get())!;
    for (let n = 1; n <= up.part_count; n++) {
      const length = expectedPartSize(row, n);
      await putPart(db, env, up.upload_id, n, length, slicer.take(length), { throughWorker: true });
    }
    if (!(await slicer.ended())) throw new ApiError("bad_request", "Тело запроса длиннее, чем Content-Length");
    return await completeUpload(db, env, auth, up.upload_id);
  } catch (err) {
    const row = await db.select().from(uploads).where(eq(uploads.uploadId, up.upload_id)).get();
    if (row && (row.state === "active" || row.state === "completing")) await abortUpload(db, env, auth, row).catch(() => {});
    throw err;
  }
}

/** A new asset in `groupId` (create on the group), then its first content; nothing is left behind on failure. */
export async function createWithContent(
  db: Db,
  env: Env,
  auth: AuthUser,
  place: { groupId: string; name: string; mime: string },
  body: ReadableStream | null,
  size: number | null,
) {
  const parsed = createAssetBody.safeParse({ asset_name: place.name, asset_mime: place.mime, in_group: place.groupId });
  if (!parsed.success) throw new ApiError("bad_request", `Недопустимое имя файла «${place.name}»`);
  const [{ asset_id }] = await createAssets(db, auth, [parsed.data]);
  if (size === null) return asset_id;
  try {
    await writeContent(db, env, auth, { assetId: asset_id, ...place }, body, size);
  } catch (err) {
    await deleteAssets(db, env, auth, [asset_id], { skipCheck: true }).catch(() => {});
    throw err;
  }
  return asset_id;
}

/** Reads exactly the requested numbers of bytes off one stream, part after part. */
class Slicer {
  private rest: Uint8Array | null = null;
  constructor(private reader: ReadableStreamDefaultReader<Uint8Array>) {}

  take(length: number): ReadableStream<Uint8Array> {
    let left = length;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (left === 0) return controller.close();
        let chunk = this.rest;
        this.rest = null;
        if (!chunk) {
          const r = await this.reader.read();
          if (r.done) return controller.error(new ApiError("bad_request", "Тело запроса короче, чем Content-Length"));
          chunk = r.value;
        }
        if (chunk.byteLength > left) {
          this.rest = chunk.subarray(left);
          chunk = chunk.subarray(0, left);
        }
        left -= chunk.byteLength;
        controller.enqueue(chunk);
        if (left === 0) controller.close();
      },
    });
  }

  async ended(): Promise<boolean> {
    if (this.rest?.byteLength) return false;
    const r = await this.reader.read();
    return r.done || r.value.byteLength === 0;
  }
}

/** A body of unknown length (chunked) is read into memory up to this size; larger ones need Content-Length. */
export const maxUnsizedBody = 64 * 1024 * 1024;

export async function sizedBody(req: Request): Promise<{ body: ReadableStream | null; size: number }> {
  const length = req.headers.get("Content-Length");
  if (length !== null && /^\d+$/.test(length)) return { body: req.body, size: Number(length) };
  if (!req.body) return { body: null, size: 0 };
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    size += r.value.byteLength;
    if (size > maxUnsizedBody) {
      await reader.cancel().catch(() => {});
      throw new ApiError("payload_too_large", "Файл без Content-Length больше 64 МиБ: клиент должен передать размер");
    }
    chunks.push(r.value as Uint8Array<ArrayBuffer>);
  }
  return { body: new Blob(chunks).stream(), size };
}
