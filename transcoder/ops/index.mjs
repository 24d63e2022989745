import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { ffmpegPath, probe, run } from "../tools.mjs";
import { imageHashes, sceneHashes } from "./fingerprint.mjs";
import { imageTech, pdfPages } from "./image-meta.mjs";
import { documentProxy, firstPagePicture } from "./pdf.mjs";
import { techFromProbe } from "./probe-fields.mjs";
import { textOperation } from "./text.mjs";
import { transcribeOperation } from "./transcribe.mjs";
import { encodeArgs, encodeCommand, frameCommand, overlayArgs, waveformCommand, watermarkPng } from "./video.mjs";

/**
 * One function per operation class (db/schema/task-templates.ts). Each gets the downloaded source and
 * the job's setup, and returns tech fields and output files; ctx.progress/log feed the task.
 */
const isImage = (mime) => mime.startsWith("image/");
const isAV = (mime) => mime.startsWith("video/") || mime.startsWith("audio/");
const isPdf = (mime) => mime === "application/pdf";

/**
 * What sharp renders an image from. An SVG (by its bytes, whatever the asset's type says) is handed
 * over in memory: rendered from a path, librsvg embeds files beside it — other jobs' sources in the
 * shared source directory — into the picture. Raster formats stream from the file.
 */
async function imageInput(file) {
  const { format } = await sharp(file).metadata();
  return format === "svg" ? readFile(file) : file;
}

/**
 * Technical fields, and the fingerprints duplicates and look-alikes are found by (fingerprint.mjs); the SHA-256
 * of the bytes is added by job.mjs. Any other type gets only that hash: the template runs on every upload.
 */
async function metadata(job, ctx) {
  const mime = job.source.mime;
  if (isImage(mime)) {
    const tech = await imageTech(ctx.src);
    return { tech: { ...tech, ...(await fingerprints(ctx, async () => imageHashes(await imageInput(ctx.src)))) } };
  }
  if (mime === "application/pdf") return { tech: { pages: pdfPages(await readFile(ctx.src)), container: "pdf" } };
  if (!isAV(mime)) return { tech: {} };
  const tech = techFromProbe(await probe(ctx.src, ctx.signal));
  if (!tech.video_codec) return { tech };
  return { tech: { ...tech, ...(await fingerprints(ctx, async () => ({ scene_hashes: await sceneHashes(ctx.src, ctx.signal) }))) } };
}

/** A picture sharp or ffmpeg cannot hash still has its technical fields: the failure goes to the task's log. */
async function fingerprints(ctx, compute) {
  try {
    return await compute();
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.log(`Отпечаток изображения не вычислен: ${err instanceof Error ? err.message : String(err)}`);
    return {};
  }
}

async function preview(job, ctx) {
  const { width = 640, height = 360, quality = 80 } = job.setup;
  // Always a raster JPEG: an SVG source is rasterised here, never passed on as a "preview".
  let input;
  if (isImage(job.source.mime)) input = await imageInput(ctx.src);
  else if (isPdf(job.source.mime)) input = await firstPagePicture(ctx.src, width, height);
  else if (job.source.mime.startsWith("audio/"))
    input = await run(ffmpegPath, waveformCommand(ctx.src, width, height), { signal: ctx.signal, onLine: ctx.log });
  else {
    const tech = techFromProbe(await probe(ctx.src, ctx.signal));
    // A frame a tenth in (not the first, which is often black), as PNG for sharp to size and compress.
    const at = Math.min(10, (tech.duration ?? 0) / 10);
    input = await run(ffmpegPath, frameCommand(ctx.src, at), { signal: ctx.signal, onLine: ctx.log });
  }
  const file = path.join(ctx.dir, "preview.jpg");
  // A PDF page and a waveform are drawn on transparent backgrounds, which JPEG would make black: a page gets white
  // behind it, as on paper, and a waveform the dark theme's surface.
  const behind = isPdf(job.source.mime) ? "#ffffff" : job.source.mime.startsWith("audio/") ? "#25262b" : null;
  const info = await sharp(input)
    .rotate()
    .flatten(behind ? { background: behind } : false)
    .resize(width, height, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality, mozjpeg: false })
    .toFile(file);
  return { outputs: [{ name: "preview", file, mime: "image/jpeg", format: "jpg", tech: { width: info.width, height: info.height } }] };
}

/** ffmpeg with -progress: percent of the source duration done, and "00:01:02 из 00:05:00". */
async function ffmpegWithProgress(_job, ctx, args, out) {
  const duration = techFromProbe(await probe(ctx.src, ctx.signal)).duration ?? 0;
  const hms = (s) => new Date(Math.max(0, s) * 1000).toISOString().slice(11, 19);
  await run(ffmpegPath, encodeCommand(ctx.src, args, out), {
    signal: ctx.signal,
    onLine: ctx.log,
    onProgress: (kv) => {
      const t = Number(kv.out_time_us ?? kv.out_time_ms ?? 0) / 1e6;
      if (duration > 0 && t >= 0)
        ctx.progress(Math.min(99, (t / duration) * 100), `${hms(t)} из ${hms(duration)}${kv.speed ? `, ${kv.speed}` : ""}`);
    },
  });
  return techFromProbe(await probe(out, ctx.signal));
}

async function proxy(job, ctx) {
  const out = path.join(ctx.dir, "proxy.mp4");
  const tech = await ffmpegWithProgress(job, ctx, encodeArgs(job.setup), out);
  return { outputs: [{ name: "proxy", file: out, mime: "video/mp4", format: "mp4", tech }] };
}

/** A PDF's pages as pictures in a new PDF (./pdf.mjs). */
async function pdfProxy(job, ctx) {
  const out = path.join(ctx.dir, "proxy.pdf");
  const tech = await documentProxy(job, ctx, out);
  return { outputs: [{ name: "proxy", file: out, mime: "application/pdf", format: "pdf", tech }] };
}

async function audioProxy(job, ctx) {
  const out = path.join(ctx.dir, "audio.m4a");
  const tech = await ffmpegWithProgress(
    job,
    ctx,
    ["-vn", "-map", "0:a:0", "-c:a", "aac", "-b:a", job.setup.audio_bitrate ?? "128k", "-ac", "2", "-movflags", "+faststart"],
    out,
  );
  return { outputs: [{ name: "audio", file: out, mime: "audio/mp4", format: "m4a", tech }] };
}

async function watermark(job, ctx) {
  const s = job.setup;
  if (isImage(job.source.mime)) {
    const img = sharp(await imageInput(ctx.src)).rotate();
    const meta = await img.metadata();
    const mark = await watermarkPng(s, meta.width, ctx);
    const out = path.join(ctx.dir, "watermarked.jpg");
    const gravity = {
      "top-left": "northwest",
      "top-right": "northeast",
      "bottom-left": "southwest",
      "bottom-right": "southeast",
      center: "centre",
    }[s.position ?? "bottom-right"];
    const info = await img
      .composite([{ input: mark, gravity }])
      .jpeg({ quality: 90 })
      .toFile(out);
    return {
      outputs: [{ name: "watermarked", file: out, mime: "image/jpeg", format: "jpg", tech: { width: info.width, height: info.height } }],
    };
  }
  const width = Math.round(((s.height ?? 720) * 16) / 9);
  const markFile = path.join(ctx.dir, "mark.png");
  await sharp(await watermarkPng(s, width, { ...ctx, forVideo: true })).toFile(markFile);
  const out = path.join(ctx.dir, "watermarked.mp4");
  const tech = await ffmpegWithProgress(job, ctx, overlayArgs(s, markFile), out);
  return { outputs: [{ name: "watermarked", file: out, mime: "video/mp4", format: "mp4", tech }] };
}

export const operations = {
  metadata,
  preview,
  proxy,
  audio_proxy: audioProxy,
  document_proxy: pdfProxy,
  watermark,
  text: textOperation,
  transcribe: (job, ctx) => transcribeOperation(job, ctx),
};
export { isAV };
