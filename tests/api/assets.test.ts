import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { accessRules, users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { api, createUser, errorOf, login } from "./helpers";
import { createAsset, json, randomBytes, sha256, uploadFile } from "./uploads.helpers";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";

let admin: string;
let alice: { id: string; bearer: string };
let bob: { id: string; bearer: string };
let group: string;

async function grant(subj: string, obj: string, acl: string[], objType: "asset" | "group" = "group") {
  await getDb(env)
    .insert(accessRules)
    .values({ ruleId: crypto.randomUUID(), subjId: subj, subjType: "user", objId: obj, objType, acl, ctime: 1 });
}

beforeAll(async () => {
  admin = (await login()).bearer;
  const aliceId = await createUser({ login: "asset-alice", password: "alice-pw-123" });
  const bobId = await createUser({ login: "asset-bob", password: "bob-pw-1234" });
  alice = { id: aliceId, bearer: (await login({ user: "asset-alice", passwd: "alice-pw-123" })).bearer };
  bob = { id: bobId, bearer: (await login({ user: "asset-bob", passwd: "bob-pw-1234" })).bearer };
  group = (
    await json(
      api("/api/group/create", { method: "POST", bearer: admin, json: { group_name: `Медиа ${crypto.randomUUID()}`, parent: ROOT } }),
    )
  ).group_id;
  await grant(aliceId, group, ["read", "create", "update", "download"]);
  await grant(bobId, group, ["read"]);
});

describe("asset CRUD", () => {
  it("creates, reads, patches and deletes an asset in a group", async () => {
    const { asset_id, ctime } = await createAsset(alice.bearer, {
      asset_name: "Интервью.mov",
      asset_mime: "video/quicktime",
      in_group: group,
    });
    expect(ctime).toBeGreaterThan(0);
    const a = await json(api(`/api/asset/${asset_id}`, { bearer: alice.bearer }));
    expect(a).toMatchObject({
      name: "Интервью.mov",
      mimetype: "video/quicktime",
      owner: alice.id,
      asset_links: [group],
      asset_latest_version: null,
    });
    expect(a.asset_access).toEqual(expect.arrayContaining(["read", "update"]));
    const cls = await json(api("/api/asset/class", { method: "POST", bearer: admin, json: { name: `Видео ${crypto.randomUUID()}` } }));
    const patched = await json(
      api(`/api/asset/${asset_id}`, {
        method: "PATCH",
        bearer: alice.bearer,
        json: { asset_name: "Интервью v2.mov", asset_class: cls.id },
      }),
    );
    expect(patched).toMatchObject({ name: "Интервью v2.mov", class: cls.id });
    expect(await json(api(`/api/asset/member-of/${asset_id}`, { bearer: alice.bearer }))).toEqual([
      expect.objectContaining({ group_id: group }),
    ]);
    // alice may not delete (no delete grant); admin may.
    expect((await api(`/api/asset/${asset_id}`, { method: "DELETE", bearer: alice.bearer })).status).toBe(403);
    expect((await api(`/api/asset/${asset_id}`, { method: "DELETE", bearer: admin })).status).toBe(200);
    expect((await api(`/api/asset/${asset_id}`, { bearer: alice.bearer })).status).toBe(404);
  });

  it("create-list returns asset_id and ctime per item; delete-list removes them", async () => {
    const list = await json(
      api("/api/asset/create-list", {
        method: "POST",
        bearer: admin,
        json: {
          assets: [
            { asset_name: "a.jpg", asset_mime: "image/jpeg" },
            { asset_name: "b.jpg", asset_mime: "image/jpeg", in_group: group },
          ],
        },
      }),
    );
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({ asset_id: expect.any(String), ctime: expect.any(Number) });
    expect(
      (
        await api("/api/asset/delete-list", {
          method: "POST",
          bearer: admin,
          json: { ids: list.map((x: { asset_id: string }) => x.asset_id) },
        })
      ).status,
    ).toBe(200);
    expect((await api(`/api/asset/${list[1].asset_id}`, { bearer: admin })).status).toBe(404);
  });

  it.each([
    ["asset_name", { asset_mime: "image/png" }],
    ["asset_mime", { asset_name: "x.png" }],
    ["asset_name", { asset_name: "a/b.png", asset_mime: "image/png" }],
    ["asset_name", { asset_name: "a\nb.png", asset_mime: "image/png" }],
    ["asset_mime", { asset_name: "x.png", asset_mime: "png" }],
    ["in_group", { asset_name: "x.png", asset_mime: "image/png", in_group: "not-an-id" }],
  ])("create answers 400 naming %s", async (field, json) => {
    const res = await api("/api/asset/create", { method: "POST", bearer: admin, json });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.field)).toContain(field);
  });

  it("PATCH validates its fields and an unknown class", async () => {
    const { asset_id } = await createAsset(admin);
    expect((await api(`/api/asset/${asset_id}`, { method: "PATCH", bearer: admin, json: {} })).status).toBe(400);
    const res = await api(`/api/asset/${asset_id}`, { method: "PATCH", bearer: admin, json: { asset_class: crypto.randomUUID() } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.field)).toContain("asset_class");
    expect((await api("/api/asset/not-a-uuid", { bearer: admin })).status).toBe(400);
  });
});

describe("access checks on assets", () => {
  it("hides assets from users without a rule (404) and refuses writes without update (403)", async () => {
    const { asset_id } = await createAsset(alice.bearer, { in_group: group });
    await uploadFile(alice.bearer, asset_id, randomBytes(1000));
    const outsider = await createUser({ login: `outsider-${crypto.randomUUID().slice(0, 8)}`, password: "outsider-pw-1" });
    const o = await login({
      user: (await getDb(env).select({ login: users.login }).from(users).where(eq(users.userId, outsider)).get())!.login,
      passwd: "outsider-pw-1",
    });
    for (const path of [
      `/api/asset/${asset_id}`,
      `/api/asset/versions/${asset_id}`,
      `/api/asset/content/download/${asset_id}/1/initial`,
      `/api/asset/content-size/${asset_id}`,
    ]) {
      expect((await api(path, { bearer: o.bearer })).status).toBe(404);
    }
    // bob reads but may neither change, nor upload, nor download.
    expect((await api(`/api/asset/${asset_id}`, { bearer: bob.bearer })).status).toBe(200);
    expect((await api(`/api/asset/${asset_id}`, { method: "PATCH", bearer: bob.bearer, json: { asset_name: "x" } })).status).toBe(403);
    expect(
      (await api("/api/ul/start", { method: "POST", bearer: bob.bearer, json: { asset_id, size: 1, name: "a", mime: "a/b" } })).status,
    ).toBe(403);
    expect((await api(`/api/asset/content/download/${asset_id}/1/initial`, { bearer: bob.bearer })).status).toBe(403);
    expect(
      (
        await api("/api/asset/create", {
          method: "POST",
          bearer: bob.bearer,
          json: { asset_name: "x", asset_mime: "a/b", in_group: group },
        })
      ).status,
    ).toBe(403);
    // An upload belongs to its starter only.
    const up = await json(
      api("/api/ul/start", { method: "POST", bearer: alice.bearer, json: { asset_id, size: 10, name: "b", mime: "a/b" } }),
    );
    expect((await api(`/api/ul/${up.upload_id}`, { bearer: bob.bearer })).status).toBe(404);
    expect((await api(`/api/ul/${up.upload_id}`, { method: "DELETE", bearer: bob.bearer })).status).toBe(404);
  });

  it("an asset in no group is its owner's alone", async () => {
    const { asset_id } = await createAsset(bob.bearer);
    expect((await api(`/api/asset/${asset_id}`, { bearer: bob.bearer })).status).toBe(200);
    expect((await api(`/api/asset/${asset_id}`, { bearer: alice.bearer })).status).toBe(404);
    expect((await api(`/api/asset/${asset_id}`, { bearer: admin })).status).toBe(200);
  });

  it("answers 401 without a bearer", async () => {
    for (const path of ["/api/asset/create", "/api/asset/class", `/api/asset/${crypto.randomUUID()}`, "/api/storage/list"]) {
      expect((await api(path)).status).toBe(401);
    }
  });
});

describe("versions, variants and the smaller calls", () => {
  it("lists versions and variants, version-by-ids, content-size, create/drop empty versions", async () => {
    const { asset_id } = await createAsset(admin, { in_group: group });
    const data = randomBytes(4321);
    const { done } = await uploadFile(admin, asset_id, data);
    const variants = await json(api(`/api/asset/variants/${asset_id}/1`, { bearer: admin }));
    expect(variants).toEqual([
      expect.objectContaining({ variant_id: done.variant_id, variant_type: "initial", content_size: 4321, file_name: "clip.mp4" }),
    ]);
    expect(await json(api("/api/asset/version-by-ids", { method: "POST", bearer: admin, json: { ids: [asset_id] } }))).toEqual([
      expect.objectContaining({ asset_id, version: 1 }),
    ]);
    expect(await json(api(`/api/asset/content-size/${asset_id}`, { bearer: admin }))).toMatchObject({ content_size: 4321, version: 1 });
    expect(
      await json(api(`/api/asset/create-version/${asset_id}`, { method: "POST", bearer: admin, json: { desc: "черновик" } })),
    ).toMatchObject({ version: 2 });
    expect(await json(api(`/api/asset/drop-empty-version/${asset_id}`, { method: "POST", bearer: admin }))).toMatchObject({ dropped: [2] });
    expect((await api(`/api/asset/variants/${asset_id}/0`, { bearer: admin })).status).toBe(400);
    const play = await json(api(`/api/asset/content/play-variant/${done.variant_id}`, { bearer: admin }));
    expect(play.link).toContain(`/api/media/${done.variant_id}?s=`);
  });

  it("classes: CRUD, class-by-ids, admin-only changes, duplicate names 409", async () => {
    const name = `Документ ${crypto.randomUUID()}`;
    const cls = await json(api("/api/asset/class", { method: "POST", bearer: admin, json: { name } }));
    expect((await api("/api/asset/class", { method: "POST", bearer: admin, json: { name } })).status).toBe(409);
    expect((await api("/api/asset/class", { method: "POST", bearer: alice.bearer, json: { name: "x" } })).status).toBe(403);
    expect((await api("/api/asset/class", { method: "POST", bearer: admin, json: {} })).status).toBe(400);
    const pages = await json(
      api("/api/fields/templates", { method: "POST", bearer: admin, json: { field_def_name: "Страниц", field_type: "number" } }),
    );
    expect(
      await json(api(`/api/asset/class/${cls.id}`, { method: "PATCH", bearer: admin, json: { def_fields: [pages.field_def_id] } })),
    ).toMatchObject({ def_fields: [pages.field_def_id] });
    expect(await json(api("/api/asset/class-by-ids", { method: "POST", bearer: alice.bearer, json: { ids: [cls.id] } }))).toEqual([
      expect.objectContaining({ id: cls.id, name }),
    ]);
    expect((await json(api("/api/asset/class", { bearer: alice.bearer }))).map((c: { id: string }) => c.id)).toContain(cls.id);
    expect((await api(`/api/asset/class/${cls.id}`, { method: "DELETE", bearer: admin })).status).toBe(200);
    expect((await api(`/api/asset/class/${cls.id}`, { method: "DELETE", bearer: admin })).status).toBe(404);
  });

  it("tech props, previews, preview-size, proxy doc, copy and acl-assets", async () => {
    const { asset_id } = await createAsset(admin, { in_group: group });
    const data = randomBytes(2048);
    const { done } = await uploadFile(admin, asset_id, data);
    const vid = done.variant_id;
    expect(
      await json(api(`/api/asset/variant-tech-props/${vid}`, { method: "PATCH", bearer: admin, json: { codec: "h264", duration: 5 } })),
    ).toEqual({ codec: "h264", duration: 5 });
    expect(await json(api(`/api/asset/tech-fields/${asset_id}/${vid}`, { bearer: admin }))).toEqual(
      expect.arrayContaining([{ name: "codec", value: "h264" }]),
    );
    expect(await json(api(`/api/asset/variant-tech-fields/${vid}`, { bearer: admin }))).toHaveLength(2);
    expect(await json(api("/api/asset/preview-size", { bearer: admin }))).toEqual({ width: 640, height: 360, quality: 80 });

    expect(
      (
        await api(`/api/asset/upload-preview/${vid}`, {
          method: "POST",
          bearer: admin,
          body: "text",
          headers: { "Content-Type": "text/plain" },
        })
      ).status,
    ).toBe(400);
    const png = randomBytes(500);
    expect(
      (
        await api(`/api/asset/upload-preview/${vid}`, {
          method: "POST",
          bearer: admin,
          body: png,
          headers: { "Content-Type": "image/png" },
        })
      ).status,
    ).toBe(200);
    const prev = await api(`/api/asset/content/preview/${asset_id}/1/${vid}`, { bearer: admin });
    expect(prev.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await prev.arrayBuffer())).toEqual(png);
    expect(
      (await json(api("/api/asset/content/preview-by-list", { method: "POST", bearer: admin, json: { ids: [asset_id] } })))[0].preview,
    ).toContain(vid);
    expect(
      (await json(api("/api/asset/content/preview-by-varlist", { method: "POST", bearer: admin, json: { ids: [vid] } })))[0].variant_id,
    ).toBe(vid);
    expect((await api(`/api/asset/asset-proxy-doc/${asset_id}/1`, { bearer: admin })).status).toBe(404);

    const copy = await json(api(`/api/asset/copy/${asset_id}/${group}`, { method: "POST", bearer: admin }));
    const dl = await api(`/api/asset/content/download/${copy.asset_id}/1/initial`, { bearer: admin });
    expect(await sha256(await dl.arrayBuffer())).toBe(await sha256(data));
    expect((await api(`/api/asset/copy/${asset_id}/${group}`, { method: "POST", bearer: bob.bearer })).status).toBe(403);

    await grant(bob.id, asset_id, ["read"], "asset");
    expect((await json(api("/api/asset/acl-assets", { bearer: bob.bearer }))).map((a: { asset_id: string }) => a.asset_id)).toContain(
      asset_id,
    );
  });
});
