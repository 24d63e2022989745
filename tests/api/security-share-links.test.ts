import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shareLinks } from "../../db/schema";
import { admin, db, mkGroup, VIRTUAL_ROOT } from "./fixtures";
import { api, errorOf } from "./helpers";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/**
 * Share links (docs/decisions/021-user-bytes.md): a `view` link never streams an original; every answer
 * that hands a download out from byte 0 (a 200, a multi-range answered whole, a 206 from 0) is counted
 * against the limit; passwords are at least 8 characters.
 */

const original = randomBytes(20_000, 5);
const proxy = randomBytes(4_000, 6);

async function asset(withProxy: boolean) {
  const bearer = await admin();
  const group = await mkGroup(VIRTUAL_ROOT);
  const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: "Исходник.mp4", asset_mime: "video/mp4" });
  await uploadFile(bearer, asset_id, original, { name: "Исходник.mp4", mime: "video/mp4" });
  if (withProxy)
    await uploadFile(bearer, asset_id, proxy, { name: "Исходник-proxy.mp4", mime: "video/mp4", version: 1, variant_type: "proxy_lowres" });
  return asset_id as string;
}

async function link(assetId: string, body: Record<string, unknown>) {
  const res = await api(`/api/sl/create/${assetId}`, { method: "POST", json: body, bearer: await admin() });
  expect(res.status).toBe(200);
  return res.text();
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const downloads = async (id: string) => (await db().select().from(shareLinks).where(eq(shareLinks.linkId, id)).get())!.downloadCount;

describe("a view link", () => {
  it("never streams the original: no player without a proxy, the proxy when there is one", async () => {
    const bare = await link(await asset(false), { acl: ["view"] });
    expect(await (await api(`/api/sl/info/${bare}`)).json()).toMatchObject({ play: null, download: null });
    expect((await api(`/api/sl/${bare}/play`)).status).toBe(403);
    expect((await api(`/api/sl/${bare}/play`, { headers: { Range: "bytes=0-99" } })).status).toBe(403);
    expect((await api(`/api/sl/${bare}/download/original`)).status).toBe(403);

    const withProxy = await link(await asset(true), { acl: ["view"] });
    const play = await api(`/api/sl/${withProxy}/play`);
    expect(play.status).toBe(200);
    expect(await bytesOf(play)).toEqual(proxy);
  });

  it("also may download the original only through the counted download route, never its player", async () => {
    const id = await link(await asset(false), { acl: ["view", "download_original"] });
    expect(await (await api(`/api/sl/info/${id}`)).json()).toMatchObject({ play: null, download: `/api/sl/${id}/download/original` });
    expect((await api(`/api/sl/${id}/play`)).status).toBe(403);
    expect(await bytesOf(await api(`/api/sl/${id}/download/original`))).toEqual(original);
    expect(await downloads(id)).toBe(1);
  });
});

describe("download counting", () => {
  it("counts every answer from byte 0 — a 200, a 206 from 0, a multi-range answered whole — and not a range further in, a HEAD or a 304", async () => {
    const id = await link(await asset(false), { acl: ["download_original"] });
    const url = `/api/sl/${id}/download/original`;
    const full = await api(url);
    expect(full.status).toBe(200);
    const etag = full.headers.get("ETag")!;
    await full.arrayBuffer();
    expect(await downloads(id)).toBe(1);

    const fromZero = await api(url, { headers: { Range: "bytes=0-99" } });
    expect(fromZero.status).toBe(206);
    await fromZero.arrayBuffer();
    expect(await downloads(id)).toBe(2);

    const further = await api(url, { headers: { Range: "bytes=100-199" } });
    expect(further.status).toBe(206);
    expect(await bytesOf(further)).toEqual(original.slice(100, 200));
    expect(await downloads(id)).toBe(2);

    // Starts past 0 but asks for more than one range: answered whole, so it is a download.
    const multi = await api(url, { headers: { Range: "bytes=5-9,0-" } });
    expect(multi.status).toBe(200);
    expect(await bytesOf(multi)).toEqual(original);
    expect(await downloads(id)).toBe(3);

    // A range whose If-Range no longer matches is answered whole too.
    const stale = await api(url, { headers: { Range: "bytes=100-199", "If-Range": '"not-the-etag"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    expect(await downloads(id)).toBe(4);

    expect((await api(url, { method: "HEAD" })).status).toBe(200);
    expect((await api(url, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect(await downloads(id)).toBe(4);
  });

  it("a multi-range request uses up the limit like any download", async () => {
    const id = await link(await asset(false), { acl: ["download_original"], download_limit: 2 });
    const url = `/api/sl/${id}/download/original`;
    expect(await bytesOf(await api(url))).toEqual(original);
    expect(await bytesOf(await api(url, { headers: { Range: "bytes=1-2,0-" } }))).toEqual(original);
    const third = await api(url);
    expect(third.status).toBe(410);
    await third.arrayBuffer();
    expect(await downloads(id)).toBe(2);
  });
});

describe("share-link passwords", () => {
  it("are refused under 8 characters, on create and on edit, with a 400 naming the field", async () => {
    const assetId = await asset(false);
    const short = await api(`/api/sl/create/${assetId}`, {
      method: "POST",
      json: { acl: ["view"], password: "1234567" },
      bearer: await admin(),
    });
    expect(short.status).toBe(400);
    const error = await errorOf(short);
    expect(error.details).toEqual([{ field: "password", message: "пароль не короче 8 символов" }]);

    const id = await link(assetId, { acl: ["view"], password: "12345678" });
    const patch = await api(`/api/sl/${id}`, { method: "PATCH", json: { password: "семь-7!" }, bearer: await admin() });
    expect(patch.status).toBe(400);
    expect((await errorOf(patch)).details?.map((d) => d.field)).toEqual(["password"]);
  });
});
