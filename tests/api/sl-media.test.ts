import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shareLinks } from "../../db/schema";
import { admin, db, mkGroup, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/** What a share link serves when the asset has a proxy and a preview, and how downloads are counted under a race. */

const original = randomBytes(40_000, 1);
const proxy = randomBytes(9_000, 2);
const preview = randomBytes(2_000, 3);

/** A video with version 1 = initial + proxy_lowres, and a preview image on the initial variant. */
async function videoWithProxy() {
  const bearer = await admin();
  const group = await mkGroup(VIRTUAL_ROOT);
  const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: "Интервью.mp4", asset_mime: "video/mp4" });
  const { done } = await uploadFile(bearer, asset_id, original, { name: "Интервью.mp4", mime: "video/mp4" });
  await uploadFile(bearer, asset_id, proxy, { name: "Интервью-proxy.mp4", mime: "video/mp4", version: 1, variant_type: "proxy_lowres" });
  const p = await api(`/api/asset/upload-preview/${done.variant_id}`, {
    method: "POST",
    bearer,
    headers: { "Content-Type": "image/jpeg" },
    body: preview as BodyInit,
  });
  expect(p.status).toBe(200);
  return asset_id;
}

async function link(assetId: string, body: Record<string, unknown>) {
  const res = await api(`/api/sl/create/${assetId}`, { method: "POST", json: body, bearer: await admin() });
  expect(res.status).toBe(200);
  return res.text();
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("a link to a video with a proxy and a preview", () => {
  it("info names the original, offers the preview, the player on the proxy and the proxy download", async () => {
    const id = await link(await videoWithProxy(), { acl: ["view", "download_proxy"] });
    const info = await (await api(`/api/sl/info/${id}`)).json();
    expect(info).toMatchObject({
      name: "Интервью.mp4",
      mime: "video/mp4",
      kind: "video",
      size: original.length,
      preview: `/api/sl/${id}/preview`,
      play: `/api/sl/${id}/play`,
      download: null,
      download_proxy: `/api/sl/${id}/download/proxy`,
    });

    const play = await api(`/api/sl/${id}/play`);
    expect(play.status).toBe(200);
    expect(play.headers.get("Content-Disposition") ?? "").toMatch(/^inline/);
    expect(await bytesOf(play)).toEqual(proxy);
    const seek = await api(`/api/sl/${id}/play`, { headers: { Range: "bytes=100-199" } });
    expect(seek.status).toBe(206);
    expect(await bytesOf(seek)).toEqual(proxy.slice(100, 200));

    const img = await api(`/api/sl/${id}/preview`);
    expect(img.status).toBe(200);
    expect(img.headers.get("Content-Type")).toBe("image/jpeg");
    expect(await bytesOf(img)).toEqual(preview);

    const dl = await api(`/api/sl/${id}/download/proxy`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("Content-Disposition") ?? "").toMatch(/^attachment/);
    expect(await bytesOf(dl)).toEqual(proxy);
    expect((await api(`/api/sl/${id}/download/original`)).status).toBe(403);
    expect((await db().select().from(shareLinks).where(eq(shareLinks.linkId, id)).get())?.downloadCount).toBe(1);
  });

  it("a download-only link offers neither the player nor the preview", async () => {
    const id = await link(await videoWithProxy(), { acl: ["download_original"] });
    expect(await (await api(`/api/sl/info/${id}`)).json()).toMatchObject({
      preview: null,
      play: null,
      download: `/api/sl/${id}/download/original`,
      download_proxy: null,
    });
    expect((await api(`/api/sl/${id}/play`)).status).toBe(403);
    expect((await api(`/api/sl/${id}/preview`)).status).toBe(404);
    expect(await bytesOf(await api(`/api/sl/${id}/download/original`))).toEqual(original);
  });
});

describe("download counting", () => {
  it("five downloads at once against a limit of two: exactly two get the file", async () => {
    const bearer = await admin();
    const group = await mkGroup(VIRTUAL_ROOT);
    const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: "Гонка.bin", asset_mime: "application/octet-stream" });
    await uploadFile(bearer, asset_id, original, { name: "Гонка.bin", mime: "application/octet-stream" });
    const id = await link(asset_id, { acl: ["download_original"], download_limit: 2 });

    const answers = await Promise.all(Array.from({ length: 5 }, () => api(`/api/sl/${id}/download/original`)));
    const statuses = answers.map((r) => r.status).sort();
    const bodies = await Promise.all(answers.map((r) => (r.status === 200 ? bytesOf(r) : r.text())));
    expect(statuses).toEqual([200, 200, 410, 410, 410]);
    for (const [i, r] of answers.entries()) if (r.status === 200) expect(bodies[i]).toEqual(original);
    expect((await db().select().from(shareLinks).where(eq(shareLinks.linkId, id)).get())?.downloadCount).toBe(2);
  });
});
