import type { Variant } from "../../db/schema";
import type { Env } from "../lib/env";
import { ApiError, errorBody } from "../lib/errors";
import { driverFor, getStorage } from "../lib/storage";
import type { Db } from "../lib/db";

/** RFC 6266: an ASCII fallback plus filename* in UTF-8, so Cyrillic names survive every browser. */
export function contentDisposition(kind: "attachment" | "inline", name: string) {
  const ascii = name.normalize("NFKD").replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_") || "file";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** One byte range of `size`, null for none or a multi-range (answered whole), "invalid" for 416. */
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

/**
 * Streams a variant from its storage: Range (206, any number of seeks), ETag / If-None-Match (304),
 * If-Range, and Content-Disposition. The body is the storage's stream, never buffered.
 */
export async function streamVariant(db: Db, env: Env, req: Request, v: Variant, disposition: "attachment" | "inline", requestId = "") {
  const etag = quoted(v.etag);
  const headers = new Headers({
    ETag: etag,
    "Accept-Ranges": "bytes",
    "Content-Type": v.mimeType,
    "Content-Disposition": contentDisposition(disposition, v.fileName),
    "Cache-Control": "private, max-age=0, must-revalidate",
    "X-Content-Type-Options": "nosniff",
  });
  const inm = req.headers.get("If-None-Match");
  if (inm && matches(inm, etag)) return new Response(null, { status: 304, headers });
  const ifRange = req.headers.get("If-Range");
  let range = parseRange(req.headers.get("Range"), v.contentSize);
  if (ifRange && !matches(ifRange, etag)) range = null;
  if (range === "invalid") {
    const body = JSON.stringify(errorBody("bad_request", "Запрошенный диапазон вне файла", requestId));
    return new Response(body, { status: 416, headers: { "Content-Range": `bytes */${v.contentSize}`, "Content-Type": "application/json" } });
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
