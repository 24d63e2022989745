import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byTemplate, type Client, makeClip, mediaClient } from "./media";

/**
 * Duplicates and look-alikes end to end (docs/decisions/058-duplicates-and-look-alikes.md): real files made by ffmpeg,
 * hashed by the real transcoder's metadata task under `npm start`, then found through the API.
 */
const ffmpeg = process.env.FFMPEG_PATH || "ffmpeg";
const dir = mkdtempSync(path.join(tmpdir(), "mam-dup-"));
let client: Client;
let top: string;

const ff = (...args: string[]) => execFileSync(ffmpeg, ["-v", "error", "-y", ...args]);

beforeAll(async () => {
  ({ client } = await mediaClient());
  top = (
    await client.call("/api/group/create", {
      json: { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: `Дубликаты ${Date.now()}` },
    })
  ).group_id;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Uploads `file` and waits for its metadata task (the one that hashes it) to finish. */
async function uploaded(file: string, mime: string, group = top) {
  const a = await client.upload(file, mime, group);
  const tasks = byTemplate(await client.waitTasks(a.assetId, 1));
  const meta = tasks["Технические метаданные"];
  expect(meta?.status, meta?.error).toBe("done");
  return a;
}

describe("exact duplicates", () => {
  it("the same bytes uploaded into two groups find each other by the transcoder's SHA-256", async () => {
    const other = (await client.call("/api/group/create", { json: { parent: top, group_name: "Копии" } })).group_id;
    const first = path.join(dir, "Оригинал.bin");
    ff("-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", "-f", "image2", "-c:v", "png", first);
    const second = path.join(dir, "Копия.bin");
    copyFileSync(first, second);
    const a = await uploaded(first, "application/octet-stream");
    const b = await uploaded(second, "application/octet-stream", other);
    const of = await client.call(`/api/duplicates/of/${a.assetId}`);
    expect(of.known).toBe(true);
    expect(of.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(of.items.map((i: { id: string }) => i.id)).toEqual([b.assetId]);
    expect(of.items[0].groups[0].path).toMatch(/\/Копии$/);
    const sets = await client.call("/api/duplicates?take=100");
    const set = sets.items.find((s: { sha256: string }) => s.sha256 === of.sha256);
    expect(set.count).toBe(2);
    expect(set.freed).toBe(set.size);
  });
});

describe("look-alikes", () => {
  it("a 50 % downscaled JPEG of a PNG comes first in similar; a different picture is not within 10", async () => {
    const png = path.join(dir, "Мандельброт.png");
    ff("-f", "lavfi", "-i", "mandelbrot=size=640x480", "-frames:v", "1", png);
    const jpg = path.join(dir, "Мандельброт-уменьшенный.jpg");
    ff("-i", png, "-vf", "scale=iw/2:ih/2", "-q:v", "6", jpg);
    const otherPic = path.join(dir, "Таблица.png");
    ff("-f", "lavfi", "-i", "testsrc=size=640x480", "-frames:v", "1", otherPic);
    const original = await uploaded(png, "image/png");
    const small = await uploaded(jpg, "image/jpeg");
    const different = await uploaded(otherPic, "image/png");

    const hits = await client.call<{ el_id: string; distance: number }[]>("/api/search/similar", {
      json: { like: original.assetId, max_distance: 10 },
    });
    expect(hits[0]?.el_id).toBe(small.assetId);
    expect(hits[0].distance).toBeLessThanOrEqual(10);
    expect(hits.map((h) => h.el_id)).not.toContain(different.assetId);
    expect(hits.map((h) => h.el_id)).not.toContain(original.assetId);
    const tech = await client.call(`/api/asset/variant-tech-props/${original.variantId}`);
    expect(tech.dhash).toMatch(/^[0-9a-f]{16}$/);
    expect(tech.phash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("two encodes of one clip are near-duplicates", async () => {
    const clip = makeClip(path.join(dir, "Сюжет.mp4"), 3, 640, 360);
    const low = path.join(dir, "Сюжет-360.mp4");
    ff("-i", clip, "-vf", "scale=480:270", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "32", "-c:a", "aac", low);
    const a = await client.upload(clip, "video/mp4", top);
    const b = await client.upload(low, "video/mp4", top);
    for (const id of [a.assetId, b.assetId]) {
      const meta = byTemplate(await client.waitTasks(id, 4))["Технические метаданные"];
      expect(meta?.status, meta?.error).toBe("done");
    }
    const near = await client.call("/api/duplicates?near=true&max_distance=10&take=100");
    const set = near.items.find((s: { assets: { id: string }[] }) => s.assets.some((x) => x.id === a.assetId));
    expect(set?.assets.map((x: { id: string }) => x.id)).toContain(b.assetId);
    // Other files of this suite upload clips of the same test pattern to the same server: they may rank as near
    // as the other encode, so the encode is asked to be among the look-alikes within the distance, not first.
    const hits = await client.call<{ el_id: string; distance: number }[]>("/api/search/similar", {
      json: { like: a.assetId, max_distance: 10 },
    });
    expect(hits.find((h) => h.el_id === b.assetId)?.distance).toBeLessThanOrEqual(10);
  });
});
