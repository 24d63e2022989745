import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { storages } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { encryptCredentials } from "../../functions/lib/storage/secrets";
import { api, createUser, errorOf, login } from "./helpers";
import { createAsset, fetchTarget, json, putParts, randomBytes, sha256, startUpload } from "./uploads.helpers";

const MiB = 1024 * 1024;
const s3Creds = { user: "S3RVER", passwd: "S3RVER" };
let bearer: string;
let s3Url: string;
beforeAll(async () => {
  bearer = (await login()).bearer;
  s3Url = inject("s3Url");
});

async function createS3Storage(extra: Record<string, unknown> = {}) {
  return json(
    api("/api/storage/create", {
      method: "POST",
      bearer,
      json: {
        storage_name: "S3 тест",
        kind: "s3",
        storage_setup: { url: s3Url, bucket: "mam-test", region: "us-east-1" },
        ...s3Creds,
        ...extra,
      },
    }),
  );
}

describe("storages", () => {
  it("creates an S3 storage, encrypts its credentials at rest and never returns them", async () => {
    const s = await createS3Storage();
    expect(s).toMatchObject({ kind: "s3", has_credentials: true, storage_setup: { bucket: "mam-test" } });
    expect(JSON.stringify(s)).not.toContain("S3RVER");
    const row = await getDb(env).select().from(storages).where(eq(storages.storageId, s.storage_id)).get();
    expect(row!.credentialsEnc).toBeTruthy();
    expect(row!.credentialsEnc).not.toContain("S3RVER");
    const list = await json(api("/api/storage/list", { bearer }));
    expect(JSON.stringify(list)).not.toContain("S3RVER");
    expect(list.find((x: { is_default: boolean }) => x.is_default)).toMatchObject({ kind: "r2" });
    const renamed = await json(
      api(`/api/storage/update/${s.storage_id}`, { method: "PATCH", bearer, json: { storage_name: "Новое имя" } }),
    );
    expect(renamed).toMatchObject({ storage_name: "Новое имя", has_credentials: true });
  });

  it("credentials sealed under an earlier JWT_SECRET are entered again, not a 500", async () => {
    const s = await createS3Storage();
    const earlier = await encryptCredentials(
      { JWT_SECRET: "an-earlier-secret-of-at-least-32-bytes!" },
      { user: "S3RVER", passwd: "S3RVER" },
    );
    await getDb(env).update(storages).set({ credentialsEnc: earlier }).where(eq(storages.storageId, s.storage_id));
    const res = await api(`/api/storage/update/${s.storage_id}`, { method: "PATCH", bearer, json: { ...s3Creds } });
    expect(res.status).toBe(200);
    const { asset_id } = await createAsset(bearer);
    await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: s.storage_id } }));
    expect((await startUpload(bearer, { asset_id, size: 100, name: "a.bin", mime: "application/octet-stream" })).status).toBe(200);
  });

  it.each([
    ["storage_setup.url", { storage_setup: { bucket: "mam-test" } }],
    ["storage_setup.bucket", { storage_setup: { url: "http://127.0.0.1:1" } }],
    ["passwd", { passwd: undefined }],
    ["storage_name", { storage_name: "" }],
  ])("create answers 400 naming %s", async (field, patch) => {
    const res = await api("/api/storage/create", {
      method: "POST",
      bearer,
      json: { storage_name: "x", kind: "s3", storage_setup: { url: "http://127.0.0.1:1", bucket: "mam-test" }, ...s3Creds, ...patch },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.field)).toContain(field);
  });

  it("is admin-only to manage; for-entity follows asset, then user, then default", async () => {
    await createUser({ login: "storage-user", password: "storage-pw-1" });
    const user = await login({ user: "storage-user", passwd: "storage-pw-1" });
    expect(
      (await api("/api/storage/create", { method: "POST", bearer: user.bearer, json: { storage_name: "x", kind: "r2" } })).status,
    ).toBe(403);
    expect((await api("/api/storage/usage", { bearer: user.bearer })).status).toBe(403);
    const s = await createS3Storage();
    const { asset_id } = await createAsset(bearer);
    expect(await json(api(`/api/storage/for-entity/${asset_id}`, { bearer }))).toMatchObject({ source: "default" });
    await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: s.storage_id } }));
    expect(await json(api(`/api/storage/for-entity/${asset_id}`, { bearer }))).toMatchObject({ source: "asset", storage_id: s.storage_id });
    expect((await api(`/api/storage/for-entity/${asset_id}`, { bearer: user.bearer })).status).toBe(404);
  });

  it("lists storages to non-admins by id and name only: no endpoint, bucket, region or kind", async () => {
    const s = await createS3Storage({ storage_name: "S3 для списка" });
    await createUser({ login: "storage-lister", password: "storage-pw-2" });
    const user = await login({ user: "storage-lister", passwd: "storage-pw-2" });
    const theirs = await json(api("/api/storage/list", { bearer: user.bearer }));
    expect(theirs).toContainEqual({ storage_id: s.storage_id, storage_name: "S3 для списка", is_default: false });
    for (const leak of [s3Url, "mam-test", "us-east-1", "storage_setup", "has_credentials", "kind"])
      expect(JSON.stringify(theirs)).not.toContain(leak);
    const admins = await json(api("/api/storage/list", { bearer }));
    expect(admins.find((x: { storage_id: string }) => x.storage_id === s.storage_id)).toMatchObject({
      kind: "s3",
      storage_setup: { url: s3Url, bucket: "mam-test" },
    });
  });
});

describe("presigned upload path against a real S3 server", () => {
  it("sends parts straight to the bucket (0 bytes through the Worker), resumes, and downloads identical", async () => {
    const s = await createS3Storage();
    const { asset_id } = await createAsset(bearer, { asset_name: "Фильм.mov" });
    await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: s.storage_id } }));
    const data = randomBytes(10 * MiB + 777);
    const up = await json(
      startUpload(bearer, { asset_id, size: data.length, name: "Фильм.mov", mime: "video/quicktime", part_size: 5 * MiB }),
    );
    expect(up).toMatchObject({ mode: "presigned", part_count: 3 });

    const targets = await putParts(bearer, up.upload_id, data, up.part_size, [2]);
    expect(targets[0].url.startsWith(s3Url)).toBe(true);
    expect(targets[0].url).toContain("X-Amz-Signature=");
    // A tampered signature is refused by the S3 server itself.
    const [t3] = await json(api(`/api/ul/${up.upload_id}/targets`, { method: "POST", bearer, json: { parts: [3] } }));
    const bad = t3.url.replace(/X-Amz-Signature=([0-9a-f])/, (_m: string, c: string) => `X-Amz-Signature=${c === "0" ? "1" : "0"}`);
    const refused = await fetchTarget(bad, data.slice(10 * MiB));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("SignatureDoesNotMatch");

    expect((await json(api(`/api/ul/${up.upload_id}`, { bearer }))).missing).toEqual([1, 3]);
    await putParts(bearer, up.upload_id, data, up.part_size, [1, 3]);
    const done = await json(api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer }));
    expect(done).toMatchObject({ content_size: data.length, version: 1 });
    expect((await json(api(`/api/ul/${up.upload_id}`, { bearer }))).worker_bytes).toBe(0);

    const res = await api(`/api/asset/content/download/${asset_id}/1/initial`, { bearer });
    expect(await sha256(await res.arrayBuffer())).toBe(await sha256(data));
    const mid = await api(`/api/asset/content/download-variant/${done.variant_id}`, {
      bearer,
      headers: { Range: "bytes=5242000-5242999" },
    });
    expect(mid.status).toBe(206);
    expect(new Uint8Array(await mid.arrayBuffer())).toEqual(data.slice(5242000, 5243000));

    const usage = await json(api("/api/storage/usage", { bearer }));
    expect(usage.find((u: { storage_id: string }) => u.storage_id === s.storage_id)).toMatchObject({ bytes: data.length, objects: 1 });
  });

  it("wrong credentials fail at start with a clear error, not a 500; the storage's own words only in the log", async () => {
    const s = await createS3Storage({ passwd: "wrong-secret" });
    const { asset_id } = await createAsset(bearer);
    await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: s.storage_id } }));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await startUpload(bearer, { asset_id, size: 100, name: "a.bin", mime: "application/octet-stream" });
      expect(res.status).toBe(503);
      const error = await errorOf(res);
      expect(error.message).toBe("Хранилище «S3 тест» не приняло загрузку. Попробуйте позже или сообщите администратору.");
      expect(JSON.stringify(error)).not.toMatch(/SignatureDoesNotMatch|S3 POST|mam-test|127\.0\.0\.1/);
      // The operator finds the storage's answer in the log under the request id the client was given.
      const line = logged.mock.calls.map((args) => args.map(String).join(" ")).find((l) => l.includes(error.requestId));
      expect(line).toMatch(/SignatureDoesNotMatch/);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("a storage that cannot be reached", () => {
  it("answers a generic Russian error at upload start, never the driver's text", async () => {
    const s = await createS3Storage({
      storage_name: "Закрытый порт",
      storage_setup: { url: "http://127.0.0.1:1", bucket: "secret-bucket-name", region: "us-east-1" },
    });
    const { asset_id } = await createAsset(bearer);
    await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: s.storage_id } }));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await startUpload(bearer, { asset_id, size: 100, name: "a.bin", mime: "application/octet-stream" });
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text).error.message).toBe(
        "Хранилище «Закрытый порт» не приняло загрузку. Попробуйте позже или сообщите администратору.",
      );
      expect(text).not.toMatch(/127\.0\.0\.1|secret-bucket-name|fetch|connect|refused|network/i);
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });
});
