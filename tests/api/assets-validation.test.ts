import { beforeAll, describe, expect, it } from "vitest";
import { api, errorOf, login } from "./helpers";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/** Bad input to the list calls and the preview upload: a 400 (or 413) naming what is wrong, nothing written. */

let bearer: string;
beforeAll(async () => {
  bearer = (await login()).bearer;
});

const fieldsOf = async (res: Response) => ((await errorOf(res)).details ?? []).map((d) => d.field);
const good = { asset_name: "Кадр.png", asset_mime: "image/png" };

describe("create-list", () => {
  it.each([
    ["assets", {}],
    ["assets", { assets: [] }],
    ["assets", { assets: "Кадр.png" }],
    ["assets", { assets: Array.from({ length: 101 }, () => good) }],
    ["assets.0.asset_name", { assets: [{ asset_mime: "image/png" }] }],
    ["assets.1.asset_mime", { assets: [good, { asset_name: "b.png", asset_mime: "png" }] }],
    ["assets.0.asset_name", { assets: [{ ...good, asset_name: "../b.png" }] }],
    ["assets.0.in_group", { assets: [{ ...good, in_group: "group-1" }] }],
  ])("answers 400 naming %s", async (field, body) => {
    const res = await api("/api/asset/create-list", { method: "POST", bearer, json: body });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toContain(field);
  });

  it("answers 404 when one item names an unknown group", async () => {
    const res = await api("/api/asset/create-list", {
      method: "POST",
      bearer,
      json: { assets: [good, { ...good, in_group: crypto.randomUUID() }] },
    });
    expect(res.status).toBe(404);
  });
});

describe("delete-list", () => {
  it.each([
    ["ids", {}],
    ["ids", { ids: [] }],
    ["ids", { ids: "a" }],
    ["ids.0", { ids: ["not-an-id"] }],
    ["ids", { ids: Array.from({ length: 101 }, () => crypto.randomUUID()) }],
  ])("answers 400 naming %s", async (field, body) => {
    const res = await api("/api/asset/delete-list", { method: "POST", bearer, json: body });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toContain(field);
  });

  it("deletes nothing when one id is unknown", async () => {
    const { asset_id } = await createAsset(bearer);
    const res = await api("/api/asset/delete-list", { method: "POST", bearer, json: { ids: [asset_id, crypto.randomUUID()] } });
    expect(res.status).toBe(404);
    expect((await api(`/api/asset/${asset_id}`, { bearer })).status).toBe(200);
  });
});

describe("upload-preview", () => {
  let variantId: string;
  let assetId: string;
  beforeAll(async () => {
    const { asset_id } = await createAsset(bearer);
    assetId = asset_id;
    variantId = (await uploadFile(bearer, asset_id, randomBytes(100))).done.variant_id;
  });
  const send = (body: Uint8Array | null, type: string) =>
    api(`/api/asset/upload-preview/${variantId}`, {
      method: "POST",
      bearer,
      headers: { "Content-Type": type },
      body: body as BodyInit | null,
    });

  it("refuses a preview over 10 MB with 413 and keeps none", async () => {
    const res = await send(randomBytes(10 * 1024 * 1024 + 1), "image/jpeg");
    expect(res.status).toBe(413);
    expect((await api(`/api/asset/content/preview/${assetId}/1/initial`, { bearer })).status).toBe(404);
  });

  it.each([
    ["Content-Type", randomBytes(10), "text/plain"],
    ["Content-Length", null, "image/jpeg"],
  ])("answers 400 naming %s", async (field, body, type) => {
    const res = await send(body, type);
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toContain(field);
  });
});
