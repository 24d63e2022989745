import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, errorOf, login } from "./helpers";
import { createAsset, fetchTarget, json, putParts, randomBytes, sha256, startUpload } from "./uploads.helpers";

/**
 * The presigned path against a real S3 server (tests/api/storage-s3.setup.ts): the Worker never sees these
 * bytes, so sizes are enforced by the bucket through the signature, and a bad part leaves the upload open.
 */

const MiB = 1024 * 1024;
let bearer: string;
let s3Url: string;
beforeAll(async () => {
  bearer = (await login()).bearer;
  s3Url = inject("s3Url");
});

/** An asset whose bytes go to a fresh S3 storage, and a started presigned upload of `data` into it. */
async function presignedUpload(data: Uint8Array) {
  const s = await json(
    api("/api/storage/create", {
      method: "POST",
      bearer,
      json: {
        storage_name: "S3 части",
        kind: "s3",
        storage_setup: { url: s3Url, bucket: "mam-test", region: "us-east-1" },
        user: "S3RVER",
        passwd: "S3RVER",
      },
    }),
  );
  const { asset_id } = await createAsset(bearer);
  await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: s.storage_id } }));
  const up = await json(
    startUpload(bearer, { asset_id, size: data.length, name: "part.bin", mime: "application/octet-stream", part_size: 5 * MiB }),
  );
  expect(up.mode).toBe("presigned");
  return { assetId: asset_id, up };
}

const targetOf = async (uploadId: string, part: number) =>
  (await json(api(`/api/ul/${uploadId}/targets`, { method: "POST", bearer, json: { parts: [part] } })))[0] as { url: string; size: number };

describe("presigned part sizes", () => {
  it.each([
    ["one byte too many", 5 * MiB + 1],
    ["one byte short", 5 * MiB - 1],
  ])("the bucket refuses a part %s; the upload stays open and the right part completes it", async (_label, wrongSize) => {
    const data = randomBytes(6 * MiB);
    const { assetId, up } = await presignedUpload(data);
    const t1 = await targetOf(up.upload_id, 1);
    expect(t1.url).toMatch(/X-Amz-SignedHeaders=content-length%3Bhost/);
    const wrong = await fetchTarget(t1.url, randomBytes(wrongSize));
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("SignatureDoesNotMatch");

    const status = await json(api(`/api/ul/${up.upload_id}`, { bearer }));
    expect(status).toMatchObject({ state: "active", missing: [1, 2] });
    await putParts(bearer, up.upload_id, data, up.part_size, [1, 2]);
    expect(await json(api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer }))).toMatchObject({ content_size: data.length });
    const res = await api(`/api/asset/content/download/${assetId}/1/initial`, { bearer });
    expect(await sha256(await res.arrayBuffer())).toBe(await sha256(data));
  });
});

describe("bad part reports", () => {
  it.each([
    ["etag", 1, {}],
    ["etag", 1, { etag: "" }],
    ["etag", 1, { etag: 42 }],
    ["part", 3, { etag: '"abc"' }],
    ["n", 0, { etag: '"abc"' }],
  ])("answers 400 naming %s", async (field, part, body) => {
    const { up } = await presignedUpload(randomBytes(6 * MiB));
    const res = await api(`/api/ul/${up.upload_id}/parts/${part}`, { method: "POST", bearer, json: body });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.field)).toContain(field);
  });

  it("targets with an empty or bad list of parts answers 400 naming parts", async () => {
    const { up } = await presignedUpload(randomBytes(6 * MiB));
    for (const parts of [[], ["x"], undefined]) {
      const res = await api(`/api/ul/${up.upload_id}/targets`, { method: "POST", bearer, json: { parts } });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).details?.map((d) => d.field.split(".")[0])).toContain("parts");
    }
  });
});
