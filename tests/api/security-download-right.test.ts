import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accessRules } from "../../db/schema";
import { verifyBearer } from "../../functions/lib/jwt";
import { signUrl } from "../../functions/lib/sign";
import { admin, db, grant, issueToken, mkGroup, mkPerson, VIRTUAL_ROOT } from "./fixtures";
import { api, login } from "./helpers";
import { createAsset, json, randomBytes, uploadFile } from "./uploads.helpers";

/**
 * `download` means something (docs/decisions/021-user-bytes.md): `read` gets previews and proxies,
 * the original needs `download` on every route; play links are bound to the session that asked for
 * them, re-checked on every request and live minutes.
 */

const original = randomBytes(30_000, 1);
const proxy = randomBytes(7_000, 2);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9, 9, 9]);

const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

/** A video in a fresh group: the original with a preview, and a proxy when `withProxy`. */
async function video(withProxy: boolean) {
  const bearer = await admin();
  const group = await mkGroup(VIRTUAL_ROOT);
  const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: "Съёмка.mp4", asset_mime: "video/mp4" });
  const { done } = await uploadFile(bearer, asset_id, original, { name: "Съёмка.mp4", mime: "video/mp4" });
  expect(
    (
      await api(`/api/asset/upload-preview/${done.variant_id}`, {
        method: "POST",
        bearer,
        body: jpeg,
        headers: { "Content-Type": "image/jpeg" },
      })
    ).status,
  ).toBe(200);
  const px = withProxy
    ? (await uploadFile(bearer, asset_id, proxy, { name: "Съёмка-proxy.mp4", mime: "video/mp4", version: 1, variant_type: "proxy_lowres" }))
        .done
    : null;
  return { group, assetId: asset_id as string, originalId: done.variant_id as string, proxyId: (px?.variant_id ?? null) as string | null };
}

async function personWith(group: string, acl: string[]) {
  const p = await mkPerson();
  await grant(p.id, group, acl);
  return p;
}

describe("a read-only user", () => {
  it("is refused the original by play, play-variant, download and download-variant, and gets the preview", async () => {
    const v = await video(false);
    const reader = await personWith(v.group, ["read"]);
    const b = reader.bearer;
    const refusals: [string, Promise<Response>][] = [
      ["play", api(`/api/asset/content/play/${v.assetId}`, { method: "POST", bearer: b })],
      ["play-variant POST", api(`/api/asset/content/play-variant/${v.originalId}`, { method: "POST", bearer: b })],
      ["play-variant GET", api(`/api/asset/content/play-variant/${v.originalId}`, { bearer: b })],
      ["download by type", api(`/api/asset/content/download/${v.assetId}/latest/initial`, { bearer: b })],
      ["download by id", api(`/api/asset/content/download/${v.assetId}/1/${v.originalId}`, { bearer: b })],
      ["download-variant", api(`/api/asset/content/download-variant/${v.originalId}`, { bearer: b })],
    ];
    for (const [what, res] of refusals) {
      const r = await res;
      expect(r.status, what).toBe(403);
      expect(((await r.json()) as { error: { message: string } }).error.message, what).toMatch(/download/);
    }
    const preview = await api(`/api/asset/content/preview/${v.assetId}/1/${v.originalId}`, { bearer: b });
    expect(preview.status).toBe(200);
    expect(await bytesOf(preview)).toEqual(jpeg);
  });

  it("gets the proxy wherever the original is refused: play picks it, play-variant and download-variant serve it", async () => {
    const v = await video(true);
    const reader = await personWith(v.group, ["read"]);
    const b = reader.bearer;
    const play = await json(api(`/api/asset/content/play/${v.assetId}`, { method: "POST", bearer: b }));
    expect(play.link).toContain(`/api/media/${v.proxyId}?`);
    expect(await bytesOf(await api(pathOf(play.link)))).toEqual(proxy);
    const playVariant = await json(api(`/api/asset/content/play-variant/${v.proxyId}`, { method: "POST", bearer: b }));
    expect(await bytesOf(await api(pathOf(playVariant.link)))).toEqual(proxy);
    expect(await bytesOf(await api(`/api/asset/content/download-variant/${v.proxyId}`, { bearer: b }))).toEqual(proxy);
    expect(await bytesOf(await api(`/api/asset/content/download/${v.assetId}/latest/proxy_lowres`, { bearer: b }))).toEqual(proxy);
    expect((await api(`/api/asset/content/play-variant/${v.originalId}`, { method: "POST", bearer: b })).status).toBe(403);
  });

  it("a media link to the original signed for the reader's own session is refused by the media route itself", async () => {
    const v = await video(false);
    const [reader, full] = [await personWith(v.group, ["read"]), await personWith(v.group, ["read", "download"])];
    const linkFor = async (bearer: string) => {
      const { sessionId } = (await verifyBearer(env.JWT_SECRET, bearer))!;
      const expire = Math.floor(Date.now() / 1000) + 600;
      return `/api/media/${v.originalId}?s=${encodeURIComponent(sessionId)}&${await signUrl(env.JWT_SECRET, "play", `${v.originalId}:${sessionId}`, expire)}`;
    };
    // The same construction is a working link for a session that has the right.
    expect(await bytesOf(await api(await linkFor(full.bearer)))).toEqual(original);
    expect((await api(await linkFor(reader.bearer))).status).toBe(403);
  });

  it("the downloader plays and downloads the original", async () => {
    const v = await video(false);
    const full = await personWith(v.group, ["read", "download"]);
    const play = await json(api(`/api/asset/content/play/${v.assetId}`, { method: "POST", bearer: full.bearer }));
    expect(await bytesOf(await api(pathOf(play.link)))).toEqual(original);
    expect(await bytesOf(await api(`/api/asset/content/download-variant/${v.originalId}`, { bearer: full.bearer }))).toEqual(original);
  });
});

describe("a PDF with its proxy of pictures (decision 073)", () => {
  it("play gives the downloader the original PDF and the reader the proxy, since the original keeps its text", async () => {
    const bearer = await admin();
    const group = await mkGroup(VIRTUAL_ROOT);
    const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: "Договор.pdf", asset_mime: "application/pdf" });
    await uploadFile(bearer, asset_id, original, { name: "Договор.pdf", mime: "application/pdf" });
    const px = (
      await uploadFile(bearer, asset_id, proxy, { name: "Договор.pdf", mime: "application/pdf", version: 1, variant_type: "proxy_lowres" })
    ).done;
    const [reader, full] = [await personWith(group, ["read"]), await personWith(group, ["read", "download"])];
    const played = async (b: string) =>
      bytesOf(await api(pathOf((await json(api(`/api/asset/content/play/${asset_id}`, { method: "POST", bearer: b }))).link)));
    expect(await played(full.bearer)).toEqual(original);
    expect(await played(reader.bearer)).toEqual(proxy);
    expect((await json(api(`/api/asset/content/play/${asset_id}`, { method: "POST", bearer: reader.bearer }))).link).toContain(
      `/api/media/${px.variant_id}?`,
    );
  });
});

describe("play links", () => {
  it("live minutes, not hours, and name the session they belong to", async () => {
    const v = await video(false);
    const full = await personWith(v.group, ["read", "download"]);
    const play = await json(api(`/api/asset/content/play-variant/${v.originalId}`, { method: "POST", bearer: full.bearer }));
    const now = Date.now() / 1000;
    expect(play.expire - now).toBeGreaterThan(5 * 60);
    expect(play.expire - now).toBeLessThanOrEqual(15 * 60);
    const other = await login({ user: full.login, passwd: full.password });
    const otherLink = await json(api(`/api/asset/content/play-variant/${v.originalId}`, { method: "POST", bearer: other.bearer }));
    const session = (link: string) => new URL(link).searchParams.get("s");
    expect(session(play.link)).toBeTruthy();
    expect(session(otherLink.link)).not.toBe(session(play.link));
    // A signature is good for its own session only.
    const swapped = new URL(play.link);
    swapped.searchParams.set("s", session(otherLink.link)!);
    expect((await api(swapped.pathname + swapped.search)).status).toBe(403);
  });

  it("stop working after logout", async () => {
    const v = await video(false);
    const full = await personWith(v.group, ["read", "download"]);
    const s = await login({ user: full.login, passwd: full.password });
    const play = await json(api(`/api/asset/content/play-variant/${v.originalId}`, { method: "POST", bearer: s.bearer }));
    expect((await api(pathOf(play.link), { headers: { Range: "bytes=0-9" } })).status).toBe(206);
    expect((await api("/api/auth/logout", { cookie: s.cookie })).status).toBe(200);
    const after = await api(pathOf(play.link), { headers: { Range: "bytes=10-19" } });
    expect(after.status).toBe(403);
    expect(((await after.json()) as { error: { message: string } }).error.message).toMatch(/Сеанс завершён/);
  });

  it("stop working when the right is taken away", async () => {
    const v = await video(false);
    const full = await mkPerson();
    const ruleId = await grant(full.id, v.group, ["read", "download"]);
    const play = await json(api(`/api/asset/content/play-variant/${v.originalId}`, { method: "POST", bearer: full.bearer }));
    expect((await api(pathOf(play.link), { headers: { Range: "bytes=0-9" } })).status).toBe(206);
    await db()
      .update(accessRules)
      .set({ acl: ["read"] })
      .where(eq(accessRules.ruleId, ruleId));
    expect((await api(pathOf(play.link), { headers: { Range: "bytes=10-19" } })).status).toBe(403);
    await db()
      .delete(accessRules)
      .where(and(eq(accessRules.ruleId, ruleId)));
    expect((await api(pathOf(play.link), { headers: { Range: "bytes=10-19" } })).status).toBe(404);
  });

  it("work for a robot's API token while the token lives", async () => {
    const v = await video(false);
    const robot = await mkPerson({ robot: true });
    await grant(robot.id, v.group, ["read", "download"]);
    const { token, token_id } = await issueToken(robot.id);
    const play = await json(api(`/api/asset/content/play-variant/${v.originalId}`, { method: "POST", bearer: token }));
    expect(new URL(play.link).searchParams.get("s")).toBe(`token:${token_id}`);
    expect(await bytesOf(await api(pathOf(play.link)))).toEqual(original);
    expect((await api(`/api/user/${robot.id}/tokens/${token_id}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await api(pathOf(play.link))).status).toBe(403);
  });
});
