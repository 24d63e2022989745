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
import { encodeArgs, encodeCommand, frameCommand } from "../../transcoder/ops/video.mjs";
import { ffmpegPath, ffprobePath } from "../../transcoder/tools.mjs";
import { benchAdmin, cpuSeconds, cpuSpent, startServer } from "./server.mjs";

const seconds = Number(process.env.BENCH_CLIP_SECONDS ?? 60);
const imageCount = Number(process.env.BENCH_IMAGES ?? 100);
const dir = mkdtempSync(path.join(tmpdir(), "mam-bench-pipe-"));
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

const run = (bin, args) =>
  new Promise((resolve, reject) => {
    const p = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => (code === 0 ? resolve(undefined) : reject(new Error(err.slice(-500)))));
  });

console.log(`Generating a ${seconds} s 1920x1080 clip and ${imageCount} images…`);
const clip = path.join(dir, "clip-1080p.mp4");
execFileSync(ffmpegPath, [
  "-v",
  "error",
  "-y",
  "-f",
  "lavfi",
  "-i",
  "testsrc2=size=1920x1080:rate=25",
  "-f",
  "lavfi",
  "-i",
  "sine=frequency=440:sample_rate=48000",
  "-t",
  String(seconds),
  "-c:v",
  "libx264",
  "-preset",
  "ultrafast",
  "-b:v",
  "8M",
  "-pix_fmt",
  "yuv420p",
  "-c:a",
  "aac",
  "-shortest",
  clip,
]);
const images = [];
for (let i = 0; i < imageCount; i++) {
  const f = path.join(dir, `img-${i}.jpg`);
  /** @type {{ noise: import("sharp").Noise }} */
  const noise = { noise: { type: "gaussian", mean: 128, sigma: 40 } };
  await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#000", ...noise } })
    .jpeg({ quality: 85 })
    .toFile(f);
  images.push(f);
}

// Bare ffmpeg: the very command lines of the four default video tasks (metadata: probe; preview: probe, one
// frame; each proxy: probe, encode, probe of the output), run at once as the transcoder's two lanes run them
// (two encodes beside two short jobs), each reading the file in place.
const proxies = [360, 720].map((height) => ({
  height,
  video_bitrate: height === 360 ? "800k" : "3M",
  audio_bitrate: height === 360 ? "96k" : "128k",
  codec: "h264",
  preset: "veryfast",
}));
const probeArgs = (f) => ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", f];
/** One bare run: wall time and CPU seconds of its ffmpeg/ffprobe processes. */
async function bare() {
  const t0 = performance.now();
  const cpu0 = cpuSeconds("self");
  await Promise.all([
    run(ffprobePath, probeArgs(clip)),
    run(ffprobePath, probeArgs(clip)).then(() => run(ffmpegPath, frameCommand(clip, Math.min(10, seconds / 10)))),
    ...proxies.map(async (p) => {
      const out = path.join(dir, `bare-${p.height}.mp4`);
      await run(ffprobePath, probeArgs(clip));
      await run(ffmpegPath, encodeCommand(clip, encodeArgs(p), out));
      await run(ffprobePath, probeArgs(out));
    }),
  ]);
  const r = { ms: performance.now() - t0, cpu: cpuSpent(cpu0, cpuSeconds("self")).total };
  console.log(`bare ffmpeg (probe ‖ probe, frame ‖ 360p ‖ 720p): ${s(r.ms)}, ${r.cpu.toFixed(1)} CPU s`);
  return r;
}
// Bare before and after the pipeline: the neighbours' load drifts, so the pipeline is set against the mean of both.
const bareBefore = await bare();
let t;

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
    const res = await retrying(p, () =>
      fetch(server.url + p, { ...init, headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` } }),
    );
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  let bearer = "";
  bearer = (await call("/api/auth/login", { method: "POST", body: JSON.stringify(benchAdmin) })).bearer;
  async function upload(file, mime) {
    const data = readFileSync(file);
    const { asset_id } = await call("/api/asset/create", {
      method: "POST",
      body: JSON.stringify({ asset_name: path.basename(file), asset_mime: mime }),
    });
    const up = await call("/api/ul/start", {
      method: "POST",
      body: JSON.stringify({ asset_id, size: data.length, name: path.basename(file), mime }),
    });
    const targets = await call(`/api/ul/${up.upload_id}/targets`, {
      method: "POST",
      body: JSON.stringify({ parts: Array.from({ length: up.part_count }, (_, i) => i + 1) }),
    });
    await Promise.all(
      targets.map(async (tg) => {
        const res = await retrying(`part ${tg.part}`, () =>
          fetch(tg.url, { method: "PUT", body: data.subarray((tg.part - 1) * up.part_size, (tg.part - 1) * up.part_size + tg.size) }),
        );
        if (!res.ok) throw new Error(`part ${tg.part}: ${res.status} ${await res.text()}`);
        await call(`/api/ul/${up.upload_id}/parts/${tg.part}`, { method: "POST", body: JSON.stringify({ etag: res.headers.get("ETag") }) });
      }),
    );
    await call(`/api/ul/${up.upload_id}/complete`, { method: "POST" });
    return asset_id;
  }
  /**
   * Polls the task list until `done`; `seen(tasks)` gets every answer (the timeline below). A poll costs
   * the Worker some 15–30 ms of CPU on the cores ffmpeg needs, so it polls every `slowMs` while no task is
   * near its end (`closeToDone`), and every 100 ms only then: the figure keeps 0.1 s resolution.
   * @param {string} query
   * @param {(tasks: any[]) => boolean} done
   * @param {{ seen?: (tasks: any[]) => void, slowMs?: number, closeToDone?: (tasks: any[]) => boolean }} [options]
   */
  const waitFor = async (query, done, { seen = () => {}, slowMs = 500, closeToDone = () => false } = {}) => {
    for (;;) {
      const tasks = await call(`/api/tasklist/current?${query}&take=200`);
      seen(tasks);
      if (done(tasks)) return tasks;
      if (tasks.some((x) => x.status === "error"))
        throw new Error(JSON.stringify(tasks.filter((x) => x.status === "error").map((x) => x.error)));
      await new Promise((r) => setTimeout(r, closeToDone(tasks) ? 100 : slowMs));
    }
  };

  const assetId = await upload(clip, "video/mp4");
  t = performance.now();
  const cpu0 = cpuSeconds(server.pid);
  // Timeline: when each task was first seen in each status after upload complete (as finely as the polls go).
  const timeline = new Map();
  const note = (list) => {
    for (const x of list) {
      const row = timeline.get(x.job_id) ?? timeline.set(x.job_id, { template: x.template }).get(x.job_id);
      row[x.status] ??= performance.now() - t;
    }
  };
  const proxyNames = ["Прокси 360p", "Прокси 720p"];
  const proxiesDone = (list) => proxyNames.every((n) => list.find((x) => x.template === n)?.status === "done");
  // Fast polling until the tasks exist, then only in the last 3 s a running proxy's progress foretells
  // (from half way on, when the estimate is good), and once it is uploading (99 %).
  const closeToDone = (list) => {
    const now = performance.now() - t;
    const near = (x) => {
      const started = timeline.get(x.job_id)?.running;
      if (x.progress >= 99) return true;
      return x.progress >= 50 && started !== undefined && now >= started + ((now - started) * 100) / x.progress - 3000;
    };
    return list.length < 4 || list.some((x) => proxyNames.includes(x.template) && x.status !== "done" && near(x));
  };
  const tasks = await waitFor(`entity=${assetId}`, proxiesDone, { seen: note, slowMs: 2000, closeToDone });
  const pipeMs = performance.now() - t;
  const { total: pipeCpu, text: cpuText } = cpuSpent(cpu0, cpuSeconds(server.pid));
  console.log(
    `pipeline, upload complete → both proxies ready: ${s(pipeMs)}, ${pipeCpu.toFixed(1)} CPU s (${cpuText}) (${tasks.map((x) => `${x.template}: ${x.status}`).join(", ")})`,
  );
  await waitFor(`entity=${assetId}`, (list) => list.length === 4 && list.every((x) => x.status === "done"), { seen: note });
  const bareAfter = await bare();
  const bareMs = (bareBefore.ms + bareAfter.ms) / 2;
  const bareCpu = (bareBefore.cpu + bareAfter.cpu) / 2;
  console.log(
    `overhead ratio pipeline / bare ffmpeg (mean of both bare runs): ${(pipeMs / bareMs).toFixed(3)} (aim ≤ 1.15); CPU ${(pipeCpu / bareCpu).toFixed(3)}`,
  );
  // Where the time went: the statuses seen, and the transcoder's own phase timings from each task's log.
  for (const [id, row] of timeline) {
    const at = ["inqueue", "running", "done"]
      .filter((st) => row[st] !== undefined)
      .map((st) => `${st} ${s(row[st])}`)
      .join(", ");
    const phases = (await call(`/api/tasklist/log/${id}`)).map((l) => l.line).filter((l) => /за \d|заняла|Передана/.test(l));
    console.log(`  ${row.template}: ${at}\n    ${phases.join("\n    ")}`);
  }

  t = performance.now();
  const ids = [];
  for (let i = 0; i < images.length; i += 8) ids.push(...(await Promise.all(images.slice(i, i + 8).map((f) => upload(f, "image/jpeg")))));
  const uploadedMs = performance.now() - t;
  const imageTasks = await waitFor(`template=00000000-0000-4000-8000-000000000002&status=done`, (list) =>
    ids.every((id) => list.some((x) => x.asset_id === id)),
  );
  await waitFor(`template=00000000-0000-4000-8000-000000000001&status=done`, (list) =>
    ids.every((id) => list.some((x) => x.asset_id === id)),
  );
  const imagesMs = performance.now() - t;
  console.log(
    `${images.length} images: uploads ${s(uploadedMs)}; all ${images.length} previews and metadata done ${s(imagesMs)} after the first upload began`,
  );
  console.log(
    `tasks per minute (metadata + preview): ${((2 * images.length) / (imagesMs / 60000)).toFixed(0)}; previews ${imageTasks.length >= images.length ? "complete" : "missing"} (aim: under 60 s)`,
  );
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
