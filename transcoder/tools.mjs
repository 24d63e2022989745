/**
 * ffmpeg and ffprobe: the system's when on PATH (Debian's has libx264/libx265 and is faster to start),
 * otherwise the static binaries of @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe, so a fresh
 * machine needs nothing but `npm ci`. FFMPEG_PATH / FFPROBE_PATH override both.
 */
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

function onPath(name) {
  const r = spawnSync(name, ["-version"], { stdio: "ignore" });
  return r.status === 0 ? name : null;
}

function fromPackage(pkg) {
  try {
    return require(pkg).path;
  } catch {
    return null;
  }
}

export const ffmpegPath = process.env.FFMPEG_PATH || onPath("ffmpeg") || fromPackage("@ffmpeg-installer/ffmpeg");
export const ffprobePath = process.env.FFPROBE_PATH || onPath("ffprobe") || fromPackage("@ffprobe-installer/ffprobe");

/**
 * Demuxers that open further inputs named inside a file (playlists, manifests, scripts, network
 * sessions): a crafted upload must not make ffmpeg fetch URLs or read other files on this machine
 * (another user's cached source, the journal with its tokens).
 */
const opensOtherInputs = [
  "hls",
  "applehttp",
  "dash",
  "concat",
  "imf",
  "sdp",
  "rtp",
  "rtsp",
  "webm_dash_manifest",
  "avisynth",
  "vapoursynth",
  "dvdvideo",
];

/** Names a binary lists under -demuxers or -devices ("mov,mp4,m4a,…" stays one entry). */
function listed(bin, what) {
  const r = spawnSync(bin, ["-hide_banner", what], { encoding: "utf8" });
  return r.status === 0 ? [...r.stdout.matchAll(/^ D\S*\s+([\w,]+)\s/gm)].map((m) => m[1]) : [];
}

/**
 * Options placed before a user file's input: only the file and pipe protocols (no http:, tcp:, data:,
 * concat: …, inherited by anything the demuxer opens), and only demuxers of this binary that read the
 * one file they are given: every demuxer but those above and the capture devices. A file in any
 * other format then fails with "Format not on whitelist".
 */
function inputGuard(bin) {
  if (!bin) return [];
  const devices = new Set(listed(bin, "-devices").flatMap((n) => n.split(",")));
  const safe = listed(bin, "-demuxers").filter((n) => !n.split(",").some((part) => opensOtherInputs.includes(part) || devices.has(part)));
  return ["-protocol_whitelist", "file,pipe", ...(safe.length ? ["-format_whitelist", safe.join(",")] : [])];
}
export const ffmpegInput = inputGuard(ffmpegPath);
export const ffprobeInput = inputGuard(ffprobePath);

/**
 * Runs a binary; resolves with stdout, rejects with the tail of stderr. `onLine` gets stderr lines
 * (the task log), `onProgress` ffmpeg's -progress key=value pairs; `signal` kills it (pause, cancel).
 * @param {string | null} bin
 * @param {string[]} args
 * @param {{ signal?: AbortSignal, onLine?: (line: string) => void, onProgress?: (pairs: Record<string, string>) => void, stdout?: "buffer" | "ignore" }} [options]
 * @returns {Promise<Buffer>}
 */
export function run(bin, args, { signal, onLine, onProgress, stdout = "buffer" } = {}) {
  return new Promise((resolve, reject) => {
    if (!bin) return reject(new Error("ffmpeg/ffprobe not found: install ffmpeg or run npm ci"));
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    /** @type {Buffer[]} */
    const out = [];
    /** @type {string[]} */
    const tail = [];
    let progressBuf = "";
    let errBuf = "";
    const abort = () => child.kill("SIGKILL");
    signal?.addEventListener("abort", abort, { once: true });
    child.stdout.on("data", (d) => {
      if (onProgress) {
        progressBuf += d.toString();
        const lines = progressBuf.split("\n");
        progressBuf = lines.pop() ?? "";
        /** @type {Record<string, string>} */
        const kv = {};
        for (const l of lines) {
          const i = l.indexOf("=");
          if (i > 0) kv[l.slice(0, i).trim()] = l.slice(i + 1).trim();
        }
        if (Object.keys(kv).length) onProgress(kv);
      } else if (stdout === "buffer") out.push(d);
    });
    child.stderr.on("data", (d) => {
      errBuf += d.toString();
      const lines = errBuf.split(/\r?\n|\r/);
      errBuf = lines.pop() ?? "";
      for (const raw of lines) {
        if (!raw.trim()) continue;
        // "Format not on whitelist '<hundreds of names>'": the names say nothing to whoever reads the task log.
        const l = raw.replace(/(not on whitelist) '[^']{200,}'/, "$1 (a playlist or script that opens other inputs)");
        tail.push(l);
        if (tail.length > 30) tail.shift();
        onLine?.(l);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      signal?.removeEventListener("abort", abort);
      if (signal?.aborted) return reject(Object.assign(new Error("aborted"), { aborted: true }));
      if (code === 0) return resolve(Buffer.concat(out));
      reject(new Error(`${bin.split("/").pop()} exited with ${code}: ${tail.slice(-5).join(" | ")}`));
    });
  });
}

/** ffprobe's JSON for a file (read as the one local file it is: ffprobeInput). */
export async function probe(file, signal) {
  const out = await run(ffprobePath, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...ffprobeInput, file], {
    signal,
  });
  return JSON.parse(out.toString());
}
