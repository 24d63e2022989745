import { AwsClient } from "aws4fetch";
import { fixedLength, StorageError, type ByteRange, type ObjectInfo, type StorageDriver } from "./types";

export interface S3Config {
  url: string;
  bucket: string;
  region?: string;
  user: string;
  passwd: string;
  token?: string;
}

const xmlValue = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
const xmlEscape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Any S3-compatible endpoint (R2's S3 API in production), path-style, signed with aws4fetch (SigV4).
 * Part URLs are presigned (query signature), so upload bytes never pass through the Worker.
 */
export function s3Driver(cfg: S3Config): StorageDriver {
  const aws = new AwsClient({
    accessKeyId: cfg.user,
    secretAccessKey: cfg.passwd,
    sessionToken: cfg.token || undefined,
    service: "s3",
    region: cfg.region || "auto",
    retries: 2,
  });
  const base = `${cfg.url.replace(/\/+$/, "")}/${encodeURIComponent(cfg.bucket)}`;
  const objectUrl = (key: string, query = "") => `${base}/${key.split("/").map(encodeURIComponent).join("/")}${query}`;

  async function call(url: string, init: RequestInit & { okStatus?: number[] } = {}) {
    const res = await aws.fetch(url, init);
    if (!res.ok && !(init.okStatus ?? []).includes(res.status)) {
      const text = await res.text().catch(() => "");
      throw new StorageError(`S3 ${init.method ?? "GET"} ${res.status}: ${xmlValue(text, "Code") ?? text.slice(0, 200)}`);
    }
    return res;
  }
  const infoOf = (res: Response): ObjectInfo => ({
    size: Number(res.headers.get("Content-Range")?.split("/")[1] ?? res.headers.get("Content-Length") ?? 0),
    etag: res.headers.get("ETag") ?? "",
  });

  return {
    presigns: true,
    async head(key) {
      const res = await call(objectUrl(key), { method: "HEAD", okStatus: [404] });
      return res.status === 404 ? null : infoOf(res);
    },
    async get(key, range?: ByteRange) {
      const headers: Record<string, string> = range ? { Range: `bytes=${range.offset}-${range.offset + range.length - 1}` } : {};
      const res = await call(objectUrl(key), { headers, okStatus: [404] });
      if (res.status === 404 || !res.body) return null;
      return { ...infoOf(res), body: res.body, mime: res.headers.get("Content-Type") ?? undefined };
    },
    async put(key, body, size, mime) {
      const data = body instanceof ReadableStream ? fixedLength(body, size) : body;
      const res = await call(objectUrl(key), { method: "PUT", body: data as BodyInit, headers: { "Content-Type": mime } });
      return { size, etag: res.headers.get("ETag") ?? "" };
    },
    async delete(keys) {
      await Promise.all(keys.map((k) => call(objectUrl(k), { method: "DELETE", okStatus: [404] })));
    },
    async createMultipart(key, mime) {
      const res = await call(objectUrl(key, "?uploads"), { method: "POST", headers: { "Content-Type": mime } });
      const id = xmlValue(await res.text(), "UploadId");
      if (!id) throw new StorageError("S3 did not return an UploadId");
      return id;
    },
    async uploadPart(key, multipartId, partNumber, body, size) {
      const q = `?partNumber=${partNumber}&uploadId=${encodeURIComponent(multipartId)}`;
      const res = await call(objectUrl(key, q), { method: "PUT", body: fixedLength(body, size) });
      return res.headers.get("ETag") ?? "";
    },
    async presignPart(key, multipartId, partNumber, expiresIn, size) {
      const q = `?partNumber=${partNumber}&uploadId=${encodeURIComponent(multipartId)}&X-Amz-Expires=${expiresIn}`;
      // Content-Length is signed into the URL (aws4fetch leaves it out unless allHeaders): the bucket itself
      // refuses a part of any other size, since the Worker never sees presigned bytes to count them.
      const signed = await aws.sign(objectUrl(key, q), {
        method: "PUT",
        headers: { "Content-Length": String(size) },
        aws: { signQuery: true, allHeaders: true },
      });
      return signed.url;
    },
    async completeMultipart(key, multipartId, parts) {
      const xml = `<CompleteMultipartUpload>${parts
        .map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${xmlEscape(p.etag)}</ETag></Part>`)
        .join("")}</CompleteMultipartUpload>`;
      const res = await call(objectUrl(key, `?uploadId=${encodeURIComponent(multipartId)}`), { method: "POST", body: xml });
      // S3 may answer 200 with an <Error> body when completion fails late.
      const text = await res.text();
      if (text.includes("<Error>")) throw new StorageError(`S3 complete failed: ${xmlValue(text, "Code")}`);
    },
    async abortMultipart(key, multipartId) {
      await call(objectUrl(key, `?uploadId=${encodeURIComponent(multipartId)}`), { method: "DELETE", okStatus: [404] }).catch(
        (err: Error) => {
          // Best effort (the row is aborted either way), but an operator should see parts left billed in the bucket.
          console.warn(`S3 abort of ${key} failed: ${err.message}`);
        },
      );
    },
  };
}
