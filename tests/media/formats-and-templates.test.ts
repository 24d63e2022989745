import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byTemplate, type Client, ffmpeg, makeClip, makeTextPages, makeTone, mediaClient, probeFile } from "./media";

/**
 * The other kinds of file (audio, PDF) and templates an admin adds as data (a watermark, a proxy
 * profile), end to end against `npm start` with the real transcoder and ffmpeg. Media stays a few
 * seconds long so each case is bounded.
 */
const dir = mkdtempSync(path.join(tmpdir(), "mam-media2-"));
let client: Client;

beforeAll(async () => {
  ({ client } = await mediaClient());
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const streams = (file: string) => {
  const p = probeFile(file);
  return { p, v: p.streams.find((s: any) => s.codec_type === "video"), a: p.streams.find((s: any) => s.codec_type === "audio") };
};

/** Runs a template on an asset by hand and waits for that task (and the upload's own ones) to finish. */
async function enqueue(assetId: string, templateId: string, expected: number) {
  const task = await client.call(`/api/tasklist/enqueue-task/${assetId}`, { json: { template_id: templateId } });
  const tasks = await client.waitTasks(assetId, expected);
  const done = tasks.find((t) => t.job_id === task.job_id);
  expect(done?.status, done?.error).toBe("done");
  return (await client.call(`/api/tasklist/task-result/${task.job_id}`)).dst_entity as string;
}

describe("audio", () => {
  it("gets tech fields, its waveform as the preview, and an audio proxy", async () => {
    const { assetId, variantId } = await client.upload(makeTone(path.join(dir, "Тон.m4a"), 3), "audio/mp4");
    const tasks = byTemplate(await client.waitTasks(assetId, 3));
    for (const name of ["Технические метаданные", "Превью", "Аудио-прокси"])
      expect(tasks[name]?.status, `${name}: ${tasks[name]?.error}`).toBe("done");

    const tech = await client.call(`/api/asset/variant-tech-props/${variantId}`);
    expect(tech.duration).toBeCloseTo(3, 0);
    expect(tech).toMatchObject({ audio_codec: "aac", audio_channels: 2, audio_sample_rate: 44100 });
    expect(tech.video_codec).toBeUndefined();

    // The waveform fills the preview's box: the accent's blue on the dark surface, both there.
    const preview = await client.bytes(`/api/asset/content/preview/${assetId}/1/${variantId}`);
    expect(await sharp(preview).metadata()).toMatchObject({ format: "jpeg", width: 640, height: 360 });
    const [red, , blue] = (await sharp(preview).stats()).channels;
    expect([blue.max > 200, red.min < 60]).toEqual([true, true]);

    const file = path.join(dir, "audio-proxy.m4a");
    writeFileSync(file, await client.bytes(`/api/asset/content/download/${assetId}/1/proxy_lowres`));
    const { p, v, a } = streams(file);
    expect([v, a?.codec_name, a?.channels]).toEqual([undefined, "aac", 2]);
    expect(Number(p.format.duration)).toBeCloseTo(3, 0);
  });
});

describe("PDF", () => {
  it("gets its page count, its first page as the preview, and a proxy of its pages as pictures only", async () => {
    const file = path.join(dir, "Документ.pdf");
    writeFileSync(file, makeTextPages([["Chapter one", "Margins"], ["Chapter two"], ["Chapter three"]]));
    const { assetId, variantId } = await client.upload(file, "application/pdf");
    // Four tasks start for a PDF: tech fields, the text for search (document-text.test.ts), the preview and the proxy.
    const tasks = byTemplate(await client.waitTasks(assetId, 4));
    for (const name of ["Технические метаданные", "Превью", "Прокси PDF"])
      expect(tasks[name]?.status, `${name}: ${tasks[name]?.error}`).toBe("done");
    expect(await client.call(`/api/asset/variant-tech-props/${variantId}`)).toMatchObject({ pages: 3, container: "pdf" });

    // The preview is page 1 fitted into 640×360 (a Letter page stands upright), with its text drawn: dark pixels on white.
    const preview = await client.bytes(`/api/asset/content/preview/${assetId}/1/${variantId}`);
    expect(await sharp(preview).metadata()).toMatchObject({ format: "jpeg", width: 278, height: 360 });
    const { channels } = await sharp(preview).stats();
    expect([channels[0].max, channels[0].min < 128]).toEqual([255, true]);

    // The proxy: a PDF of the three pages at the original's size, whose pages are pictures (no text to extract).
    const variants = await client.call(`/api/asset/variants/${assetId}/1`);
    const proxy = variants.find((v: any) => v.variant_type === "proxy_lowres");
    expect(proxy).toMatchObject({ mime_type: "application/pdf" });
    const bytes = new Uint8Array(await client.bytes(`/api/asset/content/download-variant/${proxy.variant_id}`));
    const doc = await getDocumentProxy(bytes);
    expect(doc.numPages).toBe(3);
    expect((await doc.getPage(2)).getViewport({ scale: 1 })).toMatchObject({ width: 612, height: 792 });
    expect((await extractText(doc, { mergePages: true })).text.trim()).toBe("");
    const original = await extractText(await getDocumentProxy(new Uint8Array(readFileSync(file))), { mergePages: true });
    expect(original.text).toContain("Chapter two");
  });
});

describe("templates an admin adds", () => {
  it("a watermark (text, position, opacity) makes a watermarked variant that decodes", async () => {
    const template = await client.call("/api/tasklist/task-templates", {
      json: { name: "Знак «Образец»", operation_class: "watermark", setup: { text: "ОБРАЗЕЦ", position: "top-left", opacity: 0.9 } },
    });
    expect((await client.call("/api/tasklist/task-templates/watermark")).map((t: any) => t.id)).toContain(template.id);

    const file = path.join(dir, "Пейзаж.jpg");
    const background = { r: 30, g: 60, b: 120 };
    await sharp({ create: { width: 1200, height: 800, channels: 3, background } })
      .jpeg({ quality: 90 })
      .toFile(file);
    const { assetId } = await client.upload(file, "image/jpeg");
    const variantId = await enqueue(assetId, template.id, 3);

    const variants = await client.call(`/api/asset/variants/${assetId}/1`);
    expect(variants.map((v: any) => v.variant_type).sort()).toEqual(["initial", "watermarked"]);
    const marked = await client.bytes(`/api/asset/content/download-variant/${variantId}`);
    expect(await sharp(marked).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 800 });
    // The white text is in the top-left corner the template names, and nowhere near the opposite one.
    // (stats() reads its input, not the pipeline's result: extract into a buffer first.)
    const corner = async (left: number, top: number) =>
      (await sharp(await sharp(marked).extract({ left, top, width: 300, height: 120 }).toBuffer()).stats()).channels[0].max;
    expect(await corner(0, 0)).toBeGreaterThan(200);
    expect(await corner(900, 680)).toBeLessThan(background.r + 20);
  });

  it("a proxy profile (size, bit rate, codec) makes a proxy that ffprobes at that size", async () => {
    const template = await client.call("/api/tasklist/task-templates", {
      json: {
        name: "Прокси 240p HEVC",
        operation_class: "proxy",
        setup: { height: 240, video_bitrate: "300k", codec: "hevc", preset: "ultrafast" },
      },
    });
    const { assetId } = await client.upload(makeClip(path.join(dir, "Короткий.mp4"), 2, 640, 360), "video/mp4");
    const variantId = await enqueue(assetId, template.id, 5);

    const file = path.join(dir, "profile.mp4");
    writeFileSync(file, await client.bytes(`/api/asset/content/download-variant/${variantId}`));
    const { p, v, a } = streams(file);
    expect([v.codec_name, v.width, v.height, a.codec_name]).toEqual(["hevc", 426, 240, "aac"]);
    expect(Number(v.bit_rate)).toBeLessThan(600_000); // the profile's 300k, not a default proxy's 800k or 3M
    expect(Number(p.format.duration)).toBeCloseTo(2, 0);
  });

  it("an output larger than a part goes to the Worker in parts and arrives whole", async () => {
    const template = await client.call("/api/tasklist/task-templates", {
      json: { name: "Прокси 20 Мбит/с", operation_class: "proxy", setup: { height: 360, video_bitrate: "20M", preset: "ultrafast" } },
    });
    // Temporal noise does not compress: at 20 Mbit/s four seconds make a proxy of about 10 MB, two parts or more.
    const source = path.join(dir, "Шум.mp4");
    execFileSync(ffmpeg, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=640x360:rate=25,noise=alls=60:allf=t",
      "-f",
      "lavfi",
      "-i",
      "sine",
      "-t",
      "4",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-crf",
      "30",
      "-pix_fmt",
      "yuv420p",
      "-c:a",
      "aac",
      "-shortest",
      source,
    ]);
    const { assetId } = await client.upload(source, "video/mp4");
    const variantId = await enqueue(assetId, template.id, 5);

    const task = (await client.call<any[]>(`/api/tasklist/current?entity=${assetId}&template=${template.id}`))[0];
    const sent = (await client.call<any[]>(`/api/tasklist/log/${task.job_id}`)).map((l) => l.line).find((l) => l.startsWith("Выход proxy"));
    const [, bytes, parts] = /^Выход proxy: (\d+) байт, частями: (\d+), выгружен за /.exec(sent ?? "") ?? [];
    expect(Number(parts), sent).toBeGreaterThanOrEqual(2);
    const file = path.join(dir, "parts.mp4");
    writeFileSync(file, await client.bytes(`/api/asset/content/download-variant/${variantId}`));
    expect(statSync(file).size).toBe(Number(bytes));
    const { v, a } = streams(file);
    expect([v.codec_name, v.height, a.codec_name]).toEqual(["h264", 360, "aac"]);
  });
});
