/** What the API needs from a place that holds bytes: the R2 binding or an S3-compatible bucket. */
export interface ObjectInfo {
  size: number;
  etag: string;
}

export interface ByteRange {
  offset: number;
  length: number;
}

export interface ObjectBody extends ObjectInfo {
  body: ReadableStream;
  /** Content-Type stored with the object, when the storage keeps one. */
  mime?: string;
}

export interface StorageDriver {
  /** true when part URLs can be presigned straight to the bucket (S3 credentials are configured). */
  readonly presigns: boolean;
  head(key: string): Promise<ObjectInfo | null>;
  get(key: string, range?: ByteRange): Promise<ObjectBody | null>;
  put(key: string, body: ReadableStream | ArrayBuffer | Uint8Array | string, size: number, mime: string): Promise<ObjectInfo>;
  delete(keys: string[]): Promise<void>;
  createMultipart(key: string, mime: string): Promise<string>;
  /** Worker path: streams one part (known length) into the bucket; returns its ETag. */
  uploadPart(key: string, multipartId: string, partNumber: number, body: ReadableStream, size: number): Promise<string>;
  /** Presigned path: a PUT URL for one part of exactly `size` bytes, valid `expiresIn` seconds. */
  presignPart(key: string, multipartId: string, partNumber: number, expiresIn: number, size: number): Promise<string>;
  completeMultipart(key: string, multipartId: string, parts: { partNumber: number; etag: string }[]): Promise<void>;
  abortMultipart(key: string, multipartId: string): Promise<void>;
}

export class StorageError extends Error {}

/** A body of exactly `size` bytes: R2 and fetch refuse chunked streams of unknown length. */
export function fixedLength(body: ReadableStream, size: number): ReadableStream {
  const fixed = new FixedLengthStream(size);
  body.pipeTo(fixed.writable).catch(() => {});
  return fixed.readable;
}
