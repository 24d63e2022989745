import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { accessRules } from "../../db/schema";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";
import { getDb } from "../../functions/lib/db";
import { api, createUser, errorOf, login } from "./helpers";
import { createAsset, json, randomBytes, uploadFile } from "./uploads.helpers";

/** GET /api/asset/info/{id}: the asset info screen's one call, with the caller's rights as the access engine decides them. */

let admin: string;
let editor: { id: string; bearer: string };
let reader: { id: string; bearer: string };
let outsider: { id: string; bearer: string };
let group: string;
let groupName: string;

async function grant(subj: string, obj: string, acl: string[]) {
  await getDb(env)
    .insert(accessRules)
    .values({ ruleId: crypto.randomUUID(), subjId: subj, subjType: "user", objId: obj, objType: "group", acl, ctime: 1 });
}

async function person(loginName: string) {
  const id = await createUser({ login: loginName, password: `${loginName}-pw-123` });
  return { id, bearer: (await login({ user: loginName, passwd: `${loginName}-pw-123` })).bearer };
}

beforeAll(async () => {
  admin = (await login()).bearer;
  [editor, reader, outsider] = await Promise.all([person("info-editor"), person("info-reader"), person("info-outsider")]);
  groupName = `Инфо ${crypto.randomUUID()}`;
  group = (await json(api("/api/group/create", { method: "POST", bearer: admin, json: { group_name: groupName, parent: ROOT } }))).group_id;
  await grant(editor.id, group, ["read", "create", "update", "download"]);
  await grant(reader.id, group, ["read"]);
});

const info = (id: string, bearer: string) => api(`/api/asset/info/${id}`, { bearer });

describe("GET /api/asset/info/{id}", () => {
  it("returns the asset, every version with its variants, its groups, the shown variant's tech fields and known names", async () => {
    const { asset_id } = await createAsset(editor.bearer, { asset_name: "Сюжет.mp4", asset_mime: "video/mp4", in_group: group });
    const first = (await uploadFile(editor.bearer, asset_id, randomBytes(1200))).done.variant_id;
    await json(api(`/api/asset/create-version/${asset_id}`, { method: "POST", bearer: editor.bearer, json: { desc: "второй дубль" } }));
    const second = (await uploadFile(editor.bearer, asset_id, randomBytes(800, 2), { version: 2 })).done.variant_id;
    await json(api(`/api/asset/variant-tech-props/${second}`, { method: "PATCH", bearer: admin, json: { codec: "h264" } }));

    const res = await info(asset_id, editor.bearer);
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body.asset).toMatchObject({ asset_id, name: "Сюжет.mp4", owner: editor.id, asset_links: [group], asset_latest_version: 2 });
    expect(body.versions.map((v: any) => [v.version, v.desc, v.variants.map((x: any) => x.variant_id)])).toEqual([
      [2, "второй дубль", [second]],
      [1, expect.any(String), [first]],
    ]);
    expect(body.versions[0].variants[0]).toMatchObject({ content_size: 800, file_name: "clip.mp4" });
    expect(body.groups).toEqual([{ group_id: group, group_name: groupName }]);
    expect(body.tech).toEqual({ variant_id: second, fields: [{ name: "codec", value: "h264" }] });
    // Its own name is known; without `acl` the list of who has access is not given.
    expect(body.names).toEqual({ [editor.id]: "info-editor" });
    expect(body.users).toBeNull();
  });

  it("reflects the caller's rights from the access engine: download for an editor, not for a reader", async () => {
    const { asset_id } = await createAsset(editor.bearer, { asset_name: "Права.txt", asset_mime: "text/plain", in_group: group });
    const mine = await json(info(asset_id, editor.bearer));
    expect(mine.asset.asset_access).toEqual(expect.arrayContaining(["read", "update", "download"]));
    const theirs = await json(info(asset_id, reader.bearer));
    expect(theirs.asset.asset_access).toContain("read");
    expect(theirs.asset.asset_access).not.toContain("download");
    expect(theirs.asset.asset_access).not.toContain("update");
    // The reader may not read users: the owner stays an id.
    expect(theirs.names).toEqual({});
  });

  it("gives an admin who has access, and the owner's name", async () => {
    const { asset_id } = await createAsset(editor.bearer, { asset_name: "Админ.txt", asset_mime: "text/plain", in_group: group });
    const body = await json(info(asset_id, admin));
    expect(body.names[editor.id]).toBe("info-editor");
    expect(body.users).toEqual(expect.arrayContaining([expect.objectContaining({ subj_id: reader.id, acl: ["read"], inherited: true })]));
  });

  it("answers 404 for an asset the caller may not read, the same as for one that does not exist", async () => {
    const { asset_id } = await createAsset(editor.bearer, { asset_name: "Скрытый.txt", asset_mime: "text/plain", in_group: group });
    const hidden = await info(asset_id, outsider.bearer);
    expect(hidden.status).toBe(404);
    const missing = await info(crypto.randomUUID(), outsider.bearer);
    expect(missing.status).toBe(404);
    expect((await errorOf(hidden)).message).toBe((await errorOf(missing)).message);
  });

  it("refuses a malformed id with a 400 naming the field", async () => {
    const res = await info("не-id", editor.bearer);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.field)).toContain("id");
  });
});
