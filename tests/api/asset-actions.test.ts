import { beforeAll, describe, expect, it } from "vitest";
import { api, errorOf, login } from "./helpers";
import { createAsset, json, randomBytes, startUpload, uploadFile } from "./uploads.helpers";

/**
 * What the viewer's actions ask of the upload and asset calls (decision 055): a new version through the page,
 * an extra named variant, an empty asset that a cancelled first upload leaves alone, and who made each version.
 */

let admin: string;
beforeAll(async () => {
  admin = (await login()).bearer;
});

describe("uploads into an existing asset", () => {
  it("a new version's original becomes the asset's type, and the info names who made each version", async () => {
    const { asset_id } = await createAsset(admin, { asset_name: "Обложка", asset_mime: "image/png" });
    await uploadFile(admin, asset_id, randomBytes(300), { mime: "image/png", name: "cover.png" });
    const second = await uploadFile(admin, asset_id, randomBytes(400, 2), { mime: "application/pdf", name: "cover.pdf" });
    expect(second.done).toMatchObject({ version: 2, variant_type: "initial" });

    const info = await json(api(`/api/asset/info/${asset_id}`, { bearer: admin }));
    expect(info.asset.mimetype).toBe("application/pdf");
    const me = (await json(api("/api/auth/whoami", { bearer: admin }))).id as string;
    expect(info.versions.map((v: { version: number; user_id: string }) => [v.version, v.user_id])).toEqual([
      [2, me],
      [1, me],
    ]);
    expect(info.names[me]).toBeTruthy();
  });

  it("an extra variant keeps the name it was given, as an untyped variant of the version", async () => {
    const { asset_id } = await createAsset(admin, { asset_name: "Интервью.mp4", asset_mime: "video/mp4" });
    await uploadFile(admin, asset_id, randomBytes(500));
    const extra = await uploadFile(admin, asset_id, randomBytes(200, 3), {
      version: 1,
      variant_type: "untyped",
      variant_name: "Субтитры (англ.)",
      name: "subs.srt",
      mime: "text/plain",
    });
    const variants = await json<{ variant_id: string; name: string; variant_type: string }[]>(
      api(`/api/asset/variants/${asset_id}/1`, { bearer: admin }),
    );
    expect(variants.find((v) => v.variant_id === extra.done.variant_id)).toMatchObject({
      name: "Субтитры (англ.)",
      variant_type: "untyped",
    });
    // An extra variant of an old version leaves the asset's type alone.
    expect((await json(api(`/api/asset/${asset_id}`, { bearer: admin }))).mimetype).toBe("video/mp4");
  });

  it("refuses an empty variant name, naming the field", async () => {
    const { asset_id } = await createAsset(admin);
    const res = await startUpload(admin, { asset_id, size: 10, name: "a.txt", mime: "text/plain", variant_name: "  " });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d: { field: string }) => d.field)).toContain("variant_name");
  });

  it("cancelling the first upload into an asset made empty on purpose keeps the asset; into one made for the file, deletes it", async () => {
    const kept = (await createAsset(admin, { asset_name: "Карточка", asset_mime: "application/octet-stream" })).asset_id;
    const up = await json(startUpload(admin, { asset_id: kept, size: 10, name: "a.txt", mime: "text/plain", keep_asset: true }));
    expect((await json(api(`/api/ul/${up.upload_id}`, { method: "DELETE", bearer: admin }))).asset_deleted).toBe(false);
    expect((await api(`/api/asset/${kept}`, { bearer: admin })).status).toBe(200);

    const made = (await createAsset(admin)).asset_id;
    const other = await json(startUpload(admin, { asset_id: made, size: 10, name: "a.txt", mime: "text/plain" }));
    expect((await json(api(`/api/ul/${other.upload_id}`, { method: "DELETE", bearer: admin }))).asset_deleted).toBe(true);
    expect((await api(`/api/asset/${made}`, { bearer: admin })).status).toBe(404);
  });
});
