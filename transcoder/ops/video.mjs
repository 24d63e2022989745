import sharp from "sharp";
import { ffmpegInput } from "../tools.mjs";

/** ffmpeg arguments shared by proxies and watermarked videos: H.264/HEVC + AAC in MP4 with fast start. */

/** Never upscale; heights stay even (yuv420p needs it). */
const scale = (h) => `scale=-2:'trunc(min(${h},ih)/2)*2'`;

function videoCodec(setup) {
  const rate = setup.video_bitrate ?? "3M";
  const bufsize = /^(\d+(?:\.\d+)?)([kM])$/.exec(rate);
  const codec = setup.codec === "hevc" ? ["-c:v", "libx265", "-tag:v", "hvc1"] : ["-c:v", "libx264", "-profile:v", "high"];
  return [
    ...codec,
    "-preset",
    setup.preset ?? "veryfast",
    "-b:v",
    rate,
    "-maxrate",
    rate,
    "-bufsize",
    bufsize ? `${Number(bufsize[1]) * 2}${bufsize[2]}` : rate,
    "-pix_fmt",
    "yuv420p",
  ];
}

const audio = (setup) => ["-c:a", "aac", "-b:a", setup.audio_bitrate ?? "128k", "-ac", "2"];

export function encodeArgs(setup) {
  return [
    "-map",
    "0:v:0",
    "-map",
    "0:a:0?",
    "-vf",
    scale(setup.height ?? 720),
    ...videoCodec(setup),
    ...audio(setup),
    "-movflags",
    "+faststart",
  ];
}

/** ffmpeg's whole command line for an encode with -progress on stdout (proxies, watermarks; the bench runs it bare). */
export const encodeCommand = (src, args, out) => [
  "-hide_banner",
  "-y",
  "-nostats",
  "-progress",
  "pipe:1",
  ...ffmpegInput,
  "-i",
  src,
  ...args,
  out,
];

/** The end of a command that writes one picture, as PNG on stdout. */
const onePngToStdout = ["-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "pipe:1"];

/** One frame `at` seconds in, as PNG on stdout (previews; the bench runs it bare). */
export const frameCommand = (src, at) => ["-v", "error", "-ss", at.toFixed(2), ...ffmpegInput, "-i", src, ...onePngToStdout];

/**
 * The sound's waveform, `width` × `height`, as PNG on stdout (an audio file's preview): the first audio stream mixed
 * to one channel, drawn in the app's accent on a transparent background.
 */
export const waveformCommand = (src, width, height) => [
  "-v",
  "error",
  ...ffmpegInput,
  "-i",
  src,
  "-filter_complex",
  `[0:a:0]aformat=channel_layouts=mono,showwavespic=s=${width}x${height}:colors=#4dabf7[wave]`,
  "-map",
  "[wave]",
  ...onePngToStdout,
];

const overlayAt = {
  "top-left": "24:24",
  "top-right": "W-w-24:24",
  "bottom-left": "24:H-h-24",
  "bottom-right": "W-w-24:H-h-24",
  center: "(W-w)/2:(H-h)/2",
};

export function overlayArgs(setup, markFile) {
  const opacity = Number(setup.opacity ?? 0.5);
  const filter = `[0:v]${scale(setup.height ?? 720)}[v];[1:v]format=rgba,colorchannelmixer=aa=${opacity}[m];[v][m]overlay=${overlayAt[setup.position ?? "bottom-right"]}[out]`;
  return [
    "-i",
    markFile,
    "-filter_complex",
    filter,
    "-map",
    "[out]",
    "-map",
    "0:a:0?",
    ...videoCodec(setup),
    ...audio(setup),
    "-movflags",
    "+faststart",
  ];
}

const esc = (s) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The mark as a PNG about a fifth of the frame wide: the template's text drawn by librsvg (DejaVu
 * Sans or whatever fontconfig offers), or its image fetched from the signed URL the Worker gave.
 * For images the opacity is baked in here; for video ffmpeg applies it (colorchannelmixer).
 */
export async function watermarkPng(setup, frameWidth, ctx) {
  const w = Math.max(64, Math.round(frameWidth / 5));
  const forImage = !ctx.forVideo;
  if (setup.image_url) {
    const res = await fetch(setup.image_url, { redirect: "manual", signal: ctx.signal });
    if (!res.ok) throw new Error(`watermark image: HTTP ${res.status}`);
    const img = sharp(Buffer.from(await res.arrayBuffer()))
      .resize({ width: w })
      .ensureAlpha();
    if (!forImage) return img.png().toBuffer();
    return img
      .composite([
        {
          input: Buffer.from([255, 255, 255, Math.round(255 * (setup.opacity ?? 0.5))]),
          raw: { width: 1, height: 1, channels: 4 },
          tile: true,
          blend: "dest-in",
        },
      ])
      .png()
      .toBuffer();
  }
  // Drawn large on a canvas wide enough for any glyphs (Cyrillic capitals run wider than Latin), then
  // trimmed to the ink and scaled to the mark's width, so no text is ever clipped.
  const text = esc(setup.text ?? "");
  const fontSize = 96;
  const alpha = forImage ? Number(setup.opacity ?? 0.5) : 1;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil((setup.text ?? "").length * fontSize * 1.2) + 2 * fontSize}" height="${fontSize * 2}"><text x="${fontSize}" y="${Math.round(fontSize * 1.3)}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="white" fill-opacity="${alpha}" stroke="black" stroke-opacity="${alpha * 0.6}" stroke-width="3">${text}</text></svg>`;
  const inked = await sharp(Buffer.from(svg)).png().trim().toBuffer();
  return sharp(inked)
    .resize({ width: w })
    .extend({ top: 8, bottom: 8, left: 8, right: 8, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}
