#!/usr/bin/env node
/**
 * The transcoder: a small HTTP service (Node, ffmpeg, sharp) the Worker's queue consumer hands tasks
 * to. It never sees storage credentials: a job carries signed source and destination URLs and a
 * callback URL with a per-task token (docs/decisions/011-tasks-and-transcoder.md).
 *
 * Its routes and checks are in http.mjs.
 *
 * Environment: TRANSCODER_PORT (8788), TRANSCODER_HOST (127.0.0.1), TRANSCODER_TOKEN (bearer the Worker
 * must send; may be unset only on a loopback host), TRANSCODER_ALLOWED_ORIGIN (the Worker's origin, its
 * PUBLIC_URL: the only place a job's URLs may point; PUBLIC_URL is read too; unset only on loopback, where
 * only loopback URLs are then fetched), TRANSCODER_STATE_DIR (journal; default
 * ./.data/transcoder; downloaded sources are cached in its sources/), TRANSCODER_CONCURRENCY (encodes at a
 * time; default: CPU count), TRANSCODER_LIGHT_CONCURRENCY (metadata and previews at a time, beside the
 * encodes; default: the same), TRANSCODER_NAME (worker_info),
 * TRANSCODER_PART_SIZE (outputs over it go to the Worker in parts; default 90 MiB, at least 5 MiB).
 */
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { createHandler, transcoderConfig } from "./http.mjs";
import { makeExecutor } from "./job.mjs";
import { createQueue } from "./queue.mjs";
import { createSourceCache } from "./source-cache.mjs";
import { ffmpegPath, ffprobePath } from "./tools.mjs";

// Settings that would leave it open stop it here, before it touches its state directory.
let config;
try {
  config = transcoderConfig();
} catch (err) {
  console.error(`transcoder: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
const { port, host, token, allowedOrigin } = config;
const stateDir = path.resolve(process.env.TRANSCODER_STATE_DIR ?? ".data/transcoder");
const concurrency = Math.max(1, Number(process.env.TRANSCODER_CONCURRENCY ?? os.cpus().length));
const lightConcurrency = Math.max(1, Number(process.env.TRANSCODER_LIGHT_CONCURRENCY ?? concurrency));
const workerName = process.env.TRANSCODER_NAME ?? `${os.hostname()}:${port}/${process.pid}`;

const sources = createSourceCache({ dir: path.join(stateDir, "sources") });
/** A cached source goes once the queue holds no more jobs that read it. */
const dropUnusedSource = (job, remaining) => {
  const key = job.source?.key;
  if (key && !remaining.some((j) => j.source?.key === key)) sources.drop(key);
};
const queue = createQueue({
  stateDir,
  concurrency,
  lightConcurrency,
  execute: makeExecutor({ workerName, sources }),
  onForget: dropUnusedSource,
  worker: workerName,
});

const server = createServer(
  createHandler({ queue, token, allowedOrigin, workerName, health: () => ({ ffmpeg: ffmpegPath, ffprobe: ffprobePath }) }),
);

server.listen(port, host, () => {
  const restored = queue.restore();
  console.log(
    `transcoder on http://${host}:${port} for ${allowedOrigin ?? "loopback URLs"} (concurrency ${concurrency} encodes + ${lightConcurrency} light, ffmpeg ${ffmpegPath}${restored ? `, ${restored} job(s) taken up from the journal` : ""})`,
  );
});

for (const sig of ["SIGINT", "SIGTERM"]) {
  // Jobs stay in the journal: the next start takes them up.
  process.on(sig, () => {
    queue.shutdown();
    server.close();
    setTimeout(() => process.exit(0), 200);
  });
}
