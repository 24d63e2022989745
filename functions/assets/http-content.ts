import type { Variant } from "../../db/schema";
import type { Env } from "../lib/env";
import { ApiError, errorBody } from "../lib/errors";
import { userBytesHeaders } from "../../shared/lib/served-bytes";
import { driverFor, getStorage } from "../lib/storage";
import type { Db } from "../lib/db";

/**
 * One byte range of `size`, null for none, "invalid" for 416. A multi-range request is answered with
 * the whole file (RFC 9110 allows it): a 200, which a share link counts as a download.
 */
export function parseRange(header: string | null, size: number): { offset: number; length: number } | null | "invalid" {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return header.includes(",") ? null : "invalid";
  const [, a, b] = m;
  if (a === "" && b === "") return "invalid";
  if (a === "") {
    const n = Math.min(Number(b), size);
    return n === 0 ? "invalid" : { offset: size - n, length: n };
  }
  const start = Number(a);
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return "invalid";
  return { offset: start, length: end - start + 1 };
}

const quoted = (etag: string) => (etag.startsWith('"') || etag.startsWith("W/") ? etag : `"${etag}"`);

function matches(ifNoneMatch: string, etag: string) {
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}

/** Whether an answer hands out the file from its first byte (a 200, or a 206 from byte 0): a new download. */
export const startsAtZero = (req: Request, res: Response) =>
  req.method !== "HEAD" && (res.status === 200 || (res.status === 206 && /^bytes 0-/.test(res.headers.get("Content-Range") ?? "")));

/**
 * Streams a variant from its storage: Range (206, any number of seeks), ETag / If-None-Match (304),
 * If-Range, and the served-bytes headers (shared/lib/served-bytes.ts). The body is the storage's
 * stream, never buffered.
 */
export async function streamVariant(db: Db, env: Env, req: Request, v: Variant, disposition: "attachment" | "inline", requestId = "") {
  const etag = quoted(v.etag);
  const headers = userBytesHeaders(v.mimeType, v.fileName, disposition);
  headers.set("ETag", etag);
  headers.set("Accept-Ranges", "bytes");
  headers.set("Cache-Control", "private, max-age=0, must-revalidate");
  const inm = req.headers.get("If-None-Match");
  if (inm && matches(inm, etag)) return new Response(null, { status: 304, headers });
  const ifRange = req.headers.get("If-Range");
  let range = parseRange(req.headers.get("Range"), v.contentSize);
  if (ifRange && !matches(ifRange, etag)) range = null;
  if (range === "invalid") {
    const body = JSON.stringify(errorBody("bad_request", "Запрошенный диапазон вне файла", requestId));
    return new Response(body, {
      status: 416,
      headers: { "Content-Range": `bytes */${v.contentSize}`, "Content-Type": "application/json" },
    });
  }
  const driver = await driverFor(env, await getStorage(db, v.storageId));
  const obj = await driver.get(v.objectKey, range && v.contentSize > 0 ? range : undefined);
  if (!obj) throw new ApiError("not_found", "Содержимое файла не найдено в хранилище");
  if (req.method === "HEAD") obj.body.cancel().catch(() => {});
  const body = req.method === "HEAD" ? null : obj.body;
  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${v.contentSize}`);
    headers.set("Content-Length", String(range.length));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(v.contentSize));
  return new Response(body, { status: 200, headers });
}

/**
 * A stored preview image (upload-preview or the preview job), inline under the same rules as any
 * user bytes: a preview stored as anything but an allowed image type goes out as an attachment.
 */
export async function previewResponse(
  db: Db,
  env: Env,
  req: Request,
  v: Pick<Variant, "previewKey" | "previewStorageId" | "fileName">,
  notFound: string,
) {
  if (!v.previewKey || !v.previewStorageId) throw new ApiError("not_found", notFound);
  const obj = await (await driverFor(env, await getStorage(db, v.previewStorageId))).get(v.previewKey);
  if (!obj) throw new ApiError("not_found", notFound);
  const headers = userBytesHeaders(obj.mime ?? "image/jpeg", `${v.fileName.replace(/\.[^.]*$/, "")}-preview`, "inline");
  headers.set("ETag", obj.etag);
  headers.set("Cache-Control", "private, max-age=0, must-revalidate");
  if (req.headers.get("If-None-Match") === obj.etag) {
    await obj.body.cancel();
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(obj.size));
  if (req.method === "HEAD") obj.body.cancel().catch(() => {});
  return new Response(req.method === "HEAD" ? null : obj.body, { status: 200, headers });
}
