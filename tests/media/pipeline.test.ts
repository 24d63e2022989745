import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byTemplate, type Client, fastStart, makeClip, probeFile, mediaClient } from "./media";

/**
 * End to end against `npm start` with the real transcoder and real ffmpeg: upload → tech fields,
 * a preview that decodes, proxies that ffprobe as H.264/AAC at the template's size; a transcoder
 * killed mid-task comes back (start.mjs restarts it) and the task still ends done.
 */
const dir = mkdtempSync(path.join(tmpdir(), "mam-media-"));
let client: Client;
let transcoderUrl: string;

beforeAll(async () => {
  ({ client, transcoderUrl } = await mediaClient());
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("video", () => {
  it("gets tech fields, a preview and two proxies", async () => {
    const clip = makeClip(path.join(dir, "Клип.mp4"), 3);
    const { assetId, variantId } = await client.upload(clip, "video/mp4");
    const tasks = byTemplate(await client.waitTasks(assetId, 4));
    for (const name of ["Технические метаданные", "Превью", "Прокси 360p", "Прокси 720p"])
      expect(tasks[name]?.status, `${name}: ${tasks[name]?.error}`).toBe("done");

    const tech = await client.call(`/api/asset/variant-tech-props/${variantId}`);
    expect(tech.duration).toBeCloseTo(3, 0);
    expect(tech).toMatchObject({
      width: 1280,
      height: 720,
      resolution: "1280x720",
      video_codec: "h264",
      audio_codec: "aac",
      frame_rate: 25,
      audio_channels: 1,
    });
    expect(tech.container).toContain("mp4");
    expect(tech.sha256).toMatch(/^[0-9a-f]{64}$/);

    const preview = await client.bytes(`/api/asset/content/preview/${assetId}/1/${variantId}`);
    const meta = await sharp(preview).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 640, height: 360 });

    for (const [type, height] of [
      ["proxy_lowres", 360],
      ["proxy_highres", 720],
    ] as const) {
      const file = path.join(dir, `${type}.mp4`);
      writeFileSync(file, await client.bytes(`/api/asset/content/download/${assetId}/1/${type}`));
      const p = probeFile(file);
      const v = p.streams.find((s: any) => s.codec_type === "video");
      const a = p.streams.find((s: any) => s.codec_type === "audio");
      expect([v.codec_name, v.height, v.width, a.codec_name]).toEqual(["h264", height, (height * 16) / 9, "aac"]);
      expect(Number(p.format.duration)).toBeCloseTo(3, 0);
      expect(fastStart(file)).toBe(true);
    }
    // The player gets the best proxy as soon as it exists.
    const versions = await client.call(`/api/asset/variants/${assetId}/1`);
    expect(versions.map((v: any) => v.variant_type).sort()).toEqual(["initial", "proxy_highres", "proxy_lowres"]);
  });
});

describe("image", () => {
  it("gets EXIF and a preview", async () => {
    const file = path.join(dir, "Фото.jpg");
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .jpeg({ quality: 90 })
      .withExif({ IFD0: { Make: "MAM Camera", Model: "Test 1", Copyright: "Медиа-архив" } })
      .toFile(file);
    const { assetId, variantId } = await client.upload(file, "image/jpeg");
    const tasks = await client.waitTasks(assetId, 2);
    expect(tasks.map((t) => t.status)).toEqual(["done", "done"]);
    const tech = await client.call(`/api/asset/variant-tech-props/${variantId}`);
    expect(tech).toMatchObject({ width: 1200, height: 800, container: "jpeg", exif_make: "MAM Camera", exif_model: "Test 1" });
    const preview = await sharp(await client.bytes(`/api/asset/content/preview/${assetId}/1/${variantId}`)).metadata();
    expect([preview.width, preview.height]).toEqual([540, 360]);
  });

  it("an SVG gets a raster JPEG preview shown in place; the SVG itself comes back only as an attachment of bytes", async () => {
    const file = path.join(dir, "Схема.svg");
    writeFileSync(
      file,
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><rect width="300" height="150" fill="#00c000"/><script>alert(document.domain)</script></svg>',
    );
    const { assetId, variantId } = await client.upload(file, "image/svg+xml");
    const tasks = byTemplate(await client.waitTasks(assetId, 2));
    expect(tasks.Превью?.status, tasks.Превью?.error).toBe("done");
    const get = (p: string) => fetch(client.url + p, { headers: { Authorization: `Bearer ${client.bearer}` } });

    const preview = await get(`/api/asset/content/preview/${assetId}/1/${variantId}`);
    expect(preview.headers.get("Content-Type")).toBe("image/jpeg");
    expect(preview.headers.get("Content-Disposition")).toMatch(/^inline;/);
    expect(preview.headers.get("Content-Security-Policy")).toMatch(/^sandbox; default-src 'none'/);
    const meta = await sharp(Buffer.from(await preview.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 300, 150]);

    const original = await get(`/api/asset/content/download-variant/${variantId}`);
    expect(original.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(original.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(original.headers.get("X-Content-Type-Options")).toBe("nosniff");
    await original.arrayBuffer();
  });
});

describe("a transcoder killed mid-task", () => {
  it("is restarted and the task still ends done", async () => {
    // Long enough that the 720p proxy is still running after its first progress reports (every 2 s).
    const clip = makeClip(path.join(dir, "Длинный.mp4"), 20, 1920, 1080);
    const { assetId } = await client.upload(clip, "video/mp4");
    let killed = 0;
    const tasks = await client.waitTasks(assetId, 4, 180_000, async (list) => {
      const proxy = list.find((t) => t.template === "Прокси 720p");
      if (killed || proxy?.status !== "running" || proxy.progress < 5) return;
      const health = (await fetch(`${transcoderUrl}/health`).then((r) => r.json())) as { worker: string };
      killed = Number(String(health.worker).split("/").pop());
      process.kill(killed, "SIGKILL");
    });
    expect(killed).toBeGreaterThan(0);
    expect(tasks.map((t) => [t.template, t.status])).toEqual(
      expect.arrayContaining([
        ["Прокси 720p", "done"],
        ["Прокси 360p", "done"],
      ]),
    );
    const after = (await fetch(`${transcoderUrl}/health`).then((r) => r.json())) as { worker: string };
    expect(Number(String(after.worker).split("/").pop())).not.toBe(killed);
    const proxy = tasks.find((t) => t.template === "Прокси 720p");
    const log = await client.call(`/api/tasklist/log/${proxy.job_id}`);
    expect(log.filter((l: any) => l.line.startsWith("Исходник получен")).length).toBeGreaterThanOrEqual(2);
  });
});
