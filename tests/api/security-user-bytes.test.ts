import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { defaultStorageId, variants } from "../../db/schema";
import type { Env } from "../../functions/lib/env";
import { db, mkPerson } from "./fixtures";
import { api, errorOf, type ApiInit } from "./helpers";
import { createAsset, json, uploadFile } from "./uploads.helpers";

/**
 * User bytes never run as the application (docs/decisions/021-user-bytes.md): an ordinary user's HTML
 * with a script and an SVG come back from every route that serves bytes sandboxed, never sniffed, as
 * an attachment of opaque bytes; images, video, audio, PDF and plain text are shown in place, still
 * sandboxed. SVG previews are refused at upload-preview, and one stored anyway is served as bytes.
 */

const html = new TextEncoder().encode(
  "<!doctype html><script>fetch('/api/auth/refresh').then(r => r.text()).then(t => parent.postMessage(t, '*'))</script>",
);
const svg = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script><rect width="10" height="10"/></svg>',
);
const sandbox = /^sandbox; default-src 'none'(;|$)/;

/** The headers of an answer that must not render: sandboxed, nosniff, an attachment of application/octet-stream. */
function expectInertAttachment(res: Response, what: string) {
  expect(res.headers.get("Content-Security-Policy"), what).toMatch(sandbox);
  expect(res.headers.get("X-Content-Type-Options"), what).toBe("nosniff");
  expect(res.headers.get("Content-Disposition") ?? "", what).toMatch(/^attachment;/);
  expect(res.headers.get("Content-Type"), what).toBe("application/octet-stream");
}

const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

/** An asset of the user's own (no group), its initial variant uploaded with `mime`. */
async function ownFile(bearer: string, name: string, mime: string, bytes: Uint8Array) {
  const { asset_id } = await createAsset(bearer, { asset_name: name, asset_mime: mime });
  const { done } = await uploadFile(bearer, asset_id, bytes, { name, mime });
  return { assetId: asset_id as string, variantId: done.variant_id as string };
}

/** A share link the user makes on their own asset. */
async function shareLink(bearer: string, assetId: string, acl: string[]) {
  const res = await api(`/api/sl/create/${assetId}`, { method: "POST", bearer, json: { acl } });
  expect(res.status).toBe(200);
  return res.text();
}

/** Puts a preview object of any type beside a variant, as a job (or an older release) might have stored it. */
async function storePreview(variantId: string, bytes: Uint8Array, mime: string) {
  const key = `previews/${variantId}`;
  await env.BUCKET.put(key, bytes, { httpMetadata: { contentType: mime } });
  await db().update(variants).set({ previewKey: key, previewStorageId: defaultStorageId }).where(eq(variants.variantId, variantId));
}

describe("an ordinary user's HTML and SVG", () => {
  it("every route that serves the HTML answers an inert attachment", async () => {
    const user = await mkPerson();
    const b = user.bearer;
    const { assetId, variantId } = await ownFile(b, "отчёт.html", "text/html", html);
    const routes: [string, Response][] = [];
    const play = await json(api(`/api/asset/content/play/${assetId}`, { method: "POST", bearer: b }));
    routes.push(["media link of play", await api(pathOf(play.link))]);
    const playVariant = await json(api(`/api/asset/content/play-variant/${variantId}`, { method: "POST", bearer: b }));
    routes.push(["media link of play-variant", await api(pathOf(playVariant.link))]);
    routes.push(["media link, a range", await api(pathOf(playVariant.link), { headers: { Range: "bytes=0-9" } })]);
    routes.push(["download", await api(`/api/asset/content/download/${assetId}/latest/initial`, { bearer: b })]);
    routes.push(["download-variant", await api(`/api/asset/content/download-variant/${variantId}`, { bearer: b })]);
    const id = await shareLink(b, assetId, ["view", "download_original"]);
    routes.push(["share-link download", await api(`/api/sl/${id}/download/original`)]);
    for (const [what, res] of routes) {
      expect(res.status, what).toBeLessThan(300);
      expectInertAttachment(res, what);
      await res.arrayBuffer();
    }
  });

  it("HTML uploaded as a proxy is an inert attachment on the app's player and the share link's player", async () => {
    const user = await mkPerson();
    const { assetId } = await ownFile(user.bearer, "клип.mp4", "video/mp4", new Uint8Array(100));
    const { done } = await uploadFile(user.bearer, assetId, html, {
      name: "клип.html",
      mime: "text/html",
      version: 1,
      variant_type: "proxy_lowres",
    });
    const link = await json(api(`/api/asset/content/play-variant/${done.variant_id}`, { method: "POST", bearer: user.bearer }));
    expectInertAttachment(await api(pathOf(link.link)), "app player");
    const id = await shareLink(user.bearer, assetId, ["view"]);
    const play = await api(`/api/sl/${id}/play`);
    expect(play.status).toBe(200);
    expectInertAttachment(play, "share-link player");
    expect(new Uint8Array(await play.arrayBuffer())).toEqual(html);
  });

  it("the SVG is an inert attachment too, and its 304 and HEAD answers carry the same headers", async () => {
    const user = await mkPerson();
    const { assetId, variantId } = await ownFile(user.bearer, "рисунок.svg", "image/svg+xml", svg);
    const link = await json(api(`/api/asset/content/play-variant/${variantId}`, { bearer: user.bearer }));
    const res = await api(pathOf(link.link));
    expectInertAttachment(res, "media link");
    const etag = res.headers.get("ETag")!;
    await res.arrayBuffer();
    const again = await api(pathOf(link.link), { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expectInertAttachment(again, "304");
    expectInertAttachment(
      await api(`/api/asset/content/download/${assetId}/1/${variantId}`, { bearer: user.bearer, method: "HEAD" }),
      "HEAD",
    );
  });

  it("upload-preview refuses an SVG naming Content-Type; an SVG preview stored anyway is served as an inert attachment", async () => {
    const user = await mkPerson();
    const { assetId, variantId } = await ownFile(user.bearer, "рисунок.svg", "image/svg+xml", svg);
    for (const type of ["image/svg+xml", "image/SVG+XML; charset=utf-8", "text/html"]) {
      const refused = await api(`/api/asset/upload-preview/${variantId}`, {
        method: "POST",
        bearer: user.bearer,
        body: svg,
        headers: { "Content-Type": type },
      });
      expect(refused.status, type).toBe(400);
      const error = await errorOf(refused);
      expect(error.details?.map((d) => d.field)).toEqual(["Content-Type"]);
      expect(error.message).toMatch(/растровым/);
    }

    await storePreview(variantId, svg, "image/svg+xml");
    const preview = await api(`/api/asset/content/preview/${assetId}/1/${variantId}`, { bearer: user.bearer });
    expect(preview.status).toBe(200);
    expectInertAttachment(preview, "app preview");
    await preview.arrayBuffer();
    const id = await shareLink(user.bearer, assetId, ["view"]);
    const shared = await api(`/api/sl/${id}/preview`);
    expect(shared.status).toBe(200);
    expectInertAttachment(shared, "share-link preview");
  });
});

describe("safe types are shown in place, still sandboxed", () => {
  it.each([
    ["картинка.png", "image/png", "image/png", "img-src 'self'"],
    ["ролик.mp4", "video/mp4", "video/mp4", "media-src 'self'"],
    ["звук.m4a", "audio/mp4", "audio/mp4", "media-src 'self'"],
    ["документ.pdf", "application/pdf", "application/pdf", null],
    ["заметка.txt", "text/plain", "text/plain; charset=utf-8", null],
  ])("%s on a play link: inline %s", async (name, mime, served, extra) => {
    const user = await mkPerson();
    const { variantId } = await ownFile(user.bearer, name, mime, new Uint8Array(64).fill(65));
    const link = await json(api(`/api/asset/content/play-variant/${variantId}`, { method: "POST", bearer: user.bearer }));
    const res = await api(pathOf(link.link));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(served);
    expect(res.headers.get("Content-Disposition")).toMatch(/^inline;/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Security-Policy")).toBe(
      extra ? `sandbox; default-src 'none'; ${extra}` : "sandbox; default-src 'none'",
    );
    const download = await api(`/api/asset/content/download-variant/${variantId}`, { bearer: user.bearer });
    expect(download.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(download.headers.get("Content-Type")).toBe(served);
    expect(download.headers.get("Content-Security-Policy")).toMatch(sandbox);
  });

  it("a raster preview is inline with the sandbox, on the app and on a share link", async () => {
    const user = await mkPerson();
    const { assetId, variantId } = await ownFile(user.bearer, "ролик.mp4", "video/mp4", new Uint8Array(64));
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    expect(
      (
        await api(`/api/asset/upload-preview/${variantId}`, {
          method: "POST",
          bearer: user.bearer,
          body: jpeg,
          headers: { "Content-Type": "image/jpeg" },
        })
      ).status,
    ).toBe(200);
    const id = await shareLink(user.bearer, assetId, ["view"]);
    for (const res of [
      await api(`/api/asset/content/preview/${assetId}/1/${variantId}`, { bearer: user.bearer }),
      await api(`/api/sl/${id}/preview`),
    ]) {
      expect(res.headers.get("Content-Type")).toBe("image/jpeg");
      expect(res.headers.get("Content-Disposition")).toMatch(/^inline;/);
      expect(res.headers.get("Content-Security-Policy")).toBe("sandbox; default-src 'none'; img-src 'self'");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(jpeg);
    }
  });

  it("a multi-range request on the app's routes gets the whole file (one range per request is served)", async () => {
    const user = await mkPerson();
    const bytes = new Uint8Array(100).map((_, i) => i);
    const { variantId } = await ownFile(user.bearer, "данные.bin", "application/octet-stream", bytes);
    const res = await api(`/api/asset/content/download-variant/${variantId}`, { bearer: user.bearer, headers: { Range: "bytes=0-1,5-9" } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });
});

describe("MEDIA_ORIGIN", () => {
  const media = "http://media.test";
  const call = (url: string, init: ApiInit = {}) => api(url, { ...init, env: { ...(env as unknown as Env), MEDIA_ORIGIN: media } });

  it("play links are built on it, and it serves nothing but play links", async () => {
    const user = await mkPerson();
    const { variantId } = await ownFile(user.bearer, "ролик.mp4", "video/mp4", new Uint8Array(64).fill(7));
    const res = await call(`http://mam.test/api/asset/content/play-variant/${variantId}`, {
      method: "POST",
      bearer: user.bearer,
    });
    const { link } = (await res.json()) as { link: string };
    expect(link.startsWith(`${media}/api/media/${variantId}?`)).toBe(true);
    const bytes = await call(link);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array(64).fill(7));
    for (const path of ["/", "/login", "/api/version", `/api/asset/content/download-variant/${variantId}`]) {
      const refused = await call(`${media}${path}`, { bearer: user.bearer });
      expect(refused.status, path).toBe(404);
      await refused.arrayBuffer();
    }
    expect((await call("http://mam.test/api/version")).status).toBe(200);
  });
});
