import { fixedLength, StorageError, type ByteRange, type ObjectBody, type ObjectInfo, type StorageDriver } from "./types";

const info = (o: R2Object): ObjectInfo => ({ size: o.size, etag: o.httpEtag });

/** The Worker's R2 binding. Multipart parts stream through the Worker (the local default). */
export function r2Driver(bucket: R2Bucket): StorageDriver {
  return {
    presigns: false,
    async head(key) {
      const o = await bucket.head(key);
      return o ? info(o) : null;
    },
    async get(key, range?: ByteRange): Promise<ObjectBody | null> {
      const o = await bucket.get(key, range ? { range } : undefined);
      return o ? { ...info(o), body: o.body, mime: o.httpMetadata?.contentType } : null;
    },
    async put(key, body, size, mime) {
      const data = body instanceof ReadableStream ? fixedLength(body, size) : body;
      return info(await bucket.put(key, data, { httpMetadata: { contentType: mime } }));
    },
    async delete(keys) {
      for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
    },
    async createMultipart(key, mime) {
      return (await bucket.createMultipartUpload(key, { httpMetadata: { contentType: mime } })).uploadId;
    },
    async uploadPart(key, multipartId, partNumber, body, size) {
      const part = await bucket.resumeMultipartUpload(key, multipartId).uploadPart(partNumber, fixedLength(body, size));
      return part.etag;
    },
    presignPart() {
      throw new StorageError("R2 binding cannot presign: configure S3 credentials for this storage");
    },
    async completeMultipart(key, multipartId, parts) {
      await bucket.resumeMultipartUpload(key, multipartId).complete(parts);
    },
    async abortMultipart(key, multipartId) {
      await bucket
        .resumeMultipartUpload(key, multipartId)
        .abort()
        .catch(() => {});
    },
  };
}
