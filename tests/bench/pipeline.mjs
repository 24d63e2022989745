/**
 * Pipeline figures against `npm start` (Worker + the real transcoder + real ffmpeg), decision 011:
 *  - a 60 s 1080p generated clip: upload complete → both proxies ready, next to running the same ffmpeg
 *    commands directly with the same concurrency (the overhead ratio; aim: within 15 %);
 *  - 100 small images: metadata + preview tasks per minute (aim: previews for all in under a minute on 2 cores).
 * BENCH_CLIP_SECONDS and BENCH_IMAGES override the sizes. Prints figures; never fails on time.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { encodeArgs } from "../../transcoder/ops/video.mjs";
import { ffmpegPath, ffprobePath } from "../../transcoder/tools.mjs";
import { benchAdmin, startServer } from "./server.mjs";

const seconds = Number(process.env.BENCH_CLIP_SECONDS ?? 60);
const imageCount = Number(process.env.BENCH_IMAGES ?? 100);
const dir = mkdtempSync(path.join(tmpdir(), "mam-bench-pipe-"));
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

const run = (bin, args) => new Promise((resolve, reject) => {
  const p = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  p.stderr.on("data", (d) => (err += d));
  p.on("close", (code) => (code === 0 ? resolve() : reject(new Error(err.slice(-500)))));
});

console.log(`Generating a ${seconds} s 1920x1080 clip and ${imageCount} images…`);
const clip = path.join(dir, "clip-1080p.mp4");
execFileSync(ffmpegPath, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
  "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "8M", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip]);
const images = [];
for (let i = 0; i < imageCount; i++) {
  const f = path.join(dir, `img-${i}.jpg`);
  const noise = { noise: { type: "gaussian", mean: 128, sigma: 40 } };
  await sharp({ create: { width: 1600, height: 1200, channels: 3, ...noise } }).jpeg({ quality: 85 }).toFile(f);
  images.push(f);
}

// Bare ffmpeg: the transcoder's own commands for the four default video tasks, two at a time as it runs them.
const proxies = [{ height: 360, video_bitrate: "800k", audio_bitrate: "96k" }, { height: 720, video_bitrate: "3M", audio_bitrate: "128k" }];
let t = performance.now();
await Promise.all([
  (async () => {
    await run(ffprobePath, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", clip]);
    await run(ffmpegPath, ["-v", "error", "-ss", "6", "-i", clip, "-frames:v", "1", "-y", path.join(dir, "bare.png")]);
    await run(ffmpegPath, ["-v", "error", "-y", "-i", clip, ...encodeArgs(proxies[0]), path.join(dir, "bare-360.mp4")]);
  })(),
  run(ffmpegPath, ["-v", "error", "-y", "-i", clip, ...encodeArgs(proxies[1]), path.join(dir, "bare-720.mp4")]),
]);
const bareMs = performance.now() - t;
console.log(`bare ffmpeg (probe, frame, 360p ‖ 720p): ${s(bareMs)}`);

const server = await startServer();
try {
  // wrangler dev answers 503 "Your worker restarted mid-request" when it reloads workerd (it does so when a
  // watched input changes, e.g. the shared node_modules); the calls here are safe to send again.
  const retrying = async (what, send) => {
    for (let attempt = 1; ; attempt++) {
      const res = await send();
      if (res.status !== 503 || attempt >= 5) return res;
      console.log(`${what}: 503 (${(await res.text()).slice(0, 60)}…), again`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const call = async (p, init = {}) => {
    const res = await retrying(p, () => fetch(server.url + p, { ...init, headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` } }));
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  let bearer = "";
  bearer = (await call("/api/auth/login", { method: "POST", body: JSON.stringify(benchAdmin) })).bearer;
  async function upload(file, mime) {
    const data = readFileSync(file);
    const { asset_id } = await call("/api/asset/create", { method: "POST", body: JSON.stringify({ asset_name: path.basename(file), asset_mime: mime }) });
    const up = await call("/api/ul/start", { method: "POST", body: JSON.stringify({ asset_id, size: data.length, name: path.basename(file), mime }) });
    const targets = await call(`/api/ul/${up.upload_id}/targets`, { method: "POST", body: JSON.stringify({ parts: Array.from({ length: up.part_count }, (_, i) => i + 1) }) });
    await Promise.all(targets.map(async (tg) => {
      const res = await retrying(`part ${tg.part}`, () => fetch(tg.url, { method: "PUT", body: data.subarray((tg.part - 1) * up.part_size, (tg.part - 1) * up.part_size + tg.size) }));
      if (!res.ok) throw new Error(`part ${tg.part}: ${res.status} ${await res.text()}`);
      await call(`/api/ul/${up.upload_id}/parts/${tg.part}`, { method: "POST", body: JSON.stringify({ etag: res.headers.get("ETag") }) });
    }));
    await call(`/api/ul/${up.upload_id}/complete`, { method: "POST" });
    return asset_id;
  }
  const waitFor = async (query, done) => {
    for (;;) {
      const tasks = await call(`/api/tasklist/current?${query}&take=200`);
      if (done(tasks)) return tasks;
      if (tasks.some((x) => x.status === "error")) throw new Error(JSON.stringify(tasks.filter((x) => x.status === "error").map((x) => x.error)));
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const assetId = await upload(clip, "video/mp4");
  t = performance.now();
  const tasks = await waitFor(`entity=${assetId}`, (list) => ["Прокси 360p", "Прокси 720p"].every((n) => list.find((x) => x.template === n)?.status === "done"));
  const pipeMs = performance.now() - t;
  console.log(`pipeline, upload complete → both proxies ready: ${s(pipeMs)} (${tasks.map((x) => `${x.template}: ${x.status}`).join(", ")})`);
  console.log(`overhead ratio pipeline / bare ffmpeg: ${(pipeMs / bareMs).toFixed(3)} (aim ≤ 1.15)`);
  await waitFor(`entity=${assetId}`, (list) => list.length === 4 && list.every((x) => x.status === "done"));

  t = performance.now();
  const ids = [];
  for (let i = 0; i < images.length; i += 8) ids.push(...(await Promise.all(images.slice(i, i + 8).map((f) => upload(f, "image/jpeg")))));
  const uploadedMs = performance.now() - t;
  const imageTasks = await waitFor(`template=00000000-0000-4000-8000-000000000002&status=done`, (list) => ids.every((id) => list.some((x) => x.asset_id === id)));
  await waitFor(`template=00000000-0000-4000-8000-000000000001&status=done`, (list) => ids.every((id) => list.some((x) => x.asset_id === id)));
  const imagesMs = performance.now() - t;
  console.log(`${images.length} images: uploads ${s(uploadedMs)}; all ${images.length} previews and metadata done ${s(imagesMs)} after the first upload began`);
  console.log(`tasks per minute (metadata + preview): ${((2 * images.length) / (imagesMs / 60000)).toFixed(0)}; previews ${imageTasks.length >= images.length ? "complete" : "missing"} (aim: under 60 s)`);
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
