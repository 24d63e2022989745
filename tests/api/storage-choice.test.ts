import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultStorageId, uploads } from "../../db/schema";
import { admin, call, db, mkGroup, mkPerson, VIRTUAL_ROOT } from "./fixtures";
import { createAsset, json, startUpload } from "./uploads.helpers";
import { api } from "./helpers";

/**
 * Where an asset's bytes go: the asset's storage, then its group's (own or the nearest ancestor's), then its
 * owner's, then the system default; the same answer from for-entity and from an upload start, whoever uploads.
 */

let bearer: string;
beforeAll(async () => {
  bearer = await admin();
});

/** A storage on the R2 binding: enough to tell storages apart, no S3 server needed. */
async function mkStorage(name: string): Promise<string> {
  return (await json(api("/api/storage/create", { method: "POST", bearer, json: { storage_name: name, kind: "r2" } }))).storage_id;
}

/** The storage an upload into the asset was started on, read from its D1 row. */
async function uploadStorage(assetId: string, by: string, extra: Record<string, unknown> = {}) {
  const up = await json(startUpload(by, { asset_id: assetId, size: 10, name: "a.mp4", mime: "video/mp4", ...extra }));
  return (await db().select().from(uploads).where(eq(uploads.uploadId, up.upload_id)).get())!.storageId;
}

const forEntity = async (id: string, by = bearer) => json(api(`/api/storage/for-entity/${id}`, { bearer: by }));

describe("storage choice", () => {
  it("group step: an asset in a subgroup uses the nearest ancestor's storage, for-entity and upload alike", async () => {
    const g = await mkStorage("Групповое");
    const parent = await mkGroup(VIRTUAL_ROOT);
    const child = await mkGroup(parent);
    expect((await call(`/api/group/update/${parent}`, { method: "PATCH", json: { group_default_storage: g }, bearer })).status).toBe(200);
    const { asset_id } = await createAsset(bearer, { in_group: child });

    expect(await forEntity(asset_id)).toMatchObject({ storage_id: g, source: "group" });
    expect(await forEntity(child)).toMatchObject({ storage_id: g, source: "group" });
    expect(await uploadStorage(asset_id, bearer)).toBe(g);

    // A nearer group's own storage wins over the ancestor's; an upload's target group is tried first.
    const near = await mkStorage("Ближнее");
    await call(`/api/group/update/${child}`, { method: "PATCH", json: { group_default_storage: near }, bearer });
    expect(await forEntity(asset_id)).toMatchObject({ storage_id: near, source: "group" });
    const target = await mkGroup(VIRTUAL_ROOT);
    const t = await mkStorage("Целевое");
    await call(`/api/group/update/${target}`, { method: "PATCH", json: { group_default_storage: t }, bearer });
    expect(await uploadStorage(asset_id, bearer, { to_group: target, variant_type: "proxy_lowres" })).toBe(t);

    // The asset's own storage beats every group.
    const own = await mkStorage("Своё");
    await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: own } }));
    expect(await uploadStorage(asset_id, bearer, { variant_type: "master" })).toBe(own);
  });

  it("user step: an asset in no group uses its owner's storage, not the uploader's", async () => {
    const ownerStorage = await mkStorage("Владельца");
    const uploaderStorage = await mkStorage("Загружающего");
    const owner = await mkPerson();
    const other = await mkPerson({ admin: true });
    expect((await call(`/api/user/${owner.id}`, { method: "PATCH", json: { default_storage: ownerStorage }, bearer })).status).toBe(200);
    expect((await call(`/api/user/${other.id}`, { method: "PATCH", json: { default_storage: uploaderStorage }, bearer })).status).toBe(200);
    const { asset_id } = await createAsset(owner.bearer);

    expect(await forEntity(asset_id, owner.bearer)).toMatchObject({ storage_id: ownerStorage, source: "user" });
    expect(await forEntity(owner.id, owner.bearer)).toMatchObject({ storage_id: ownerStorage, source: "user" });
    expect(await uploadStorage(asset_id, other.bearer)).toBe(ownerStorage);

    const plain = await mkPerson();
    const { asset_id: fresh } = await createAsset(plain.bearer);
    expect(await forEntity(fresh, plain.bearer)).toMatchObject({ source: "default", storage_id: defaultStorageId });
  });
});

describe("storage ids are checked where they are set", () => {
  const unknown = "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f";
  it.each([
    [
      "group_default_storage",
      async () =>
        call(`/api/group/update/${await mkGroup(VIRTUAL_ROOT)}`, { method: "PATCH", json: { group_default_storage: unknown }, bearer }),
    ],
    [
      "default_storage",
      async () => call(`/api/user/${(await mkPerson()).id}`, { method: "PATCH", json: { default_storage: unknown }, bearer }),
    ],
    [
      "default_storage",
      async () =>
        call("/api/user", {
          method: "POST",
          json: {
            user_name: "Хранитель",
            user_login: `keeper-${Date.now()}`,
            user_passwd: "long-enough-password-1",
            enabled: true,
            default_storage: unknown,
          },
          bearer,
        }),
    ],
    [
      "storage_id",
      async () =>
        call(`/api/storage/for-entity/${(await createAsset(bearer)).asset_id}`, { method: "POST", json: { storage_id: unknown }, bearer }),
    ],
  ])("an unknown storage answers 400 naming %s", async (field, run) => {
    const r = await run();
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([
    ["storage_name", { storage_name: "" }],
    ["storage_setup.url", { storage_setup: { url: "ftp://example.com" } }],
    ["storage_setup.bucket", { storage_setup: { bucket: "A" } }],
    ["user", { user: "" }],
    ["clear_credentials", { clear_credentials: "yes" }],
  ])("storage update answers 400 naming %s", async (field, body) => {
    const id = await mkStorage("Для правки");
    const r = await call(`/api/storage/update/${id}`, { method: "PATCH", json: body, bearer });
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("storage update of an unknown id is 404; for-entity of an unknown entity is 404", async () => {
    expect((await call(`/api/storage/update/${unknown}`, { method: "PATCH", json: { storage_name: "x" }, bearer })).status).toBe(404);
    expect((await call(`/api/storage/for-entity/${unknown}`, { bearer })).status).toBe(404);
  });
});
