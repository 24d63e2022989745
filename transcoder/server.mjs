#!/usr/bin/env node
/**
 * The transcoder: a small HTTP service (Node, ffmpeg, sharp) the Worker's queue consumer hands tasks
 * to. It never sees storage credentials: a job carries signed source and destination URLs and a
 * callback URL with a per-task token (docs/decisions/011-tasks-and-transcoder.md).
 *
 *   POST   /tasks               accept a job (202); idempotent by id and run
 *   GET    /tasks/{id}          { id, run, state } or 404
 *   DELETE /tasks/{id}          stop and forget (pause, cancel)
 *   POST   /tasks/{id}/priority { priority }
 *   GET    /health              { ok, queued, running, concurrency, ffmpeg }
 *
 * Environment: TRANSCODER_PORT (8788), TRANSCODER_HOST (127.0.0.1), TRANSCODER_TOKEN (bearer the Worker
 * must send; unset = no check, for local use only), TRANSCODER_STATE_DIR (journal; default
 * ./.data/transcoder; downloaded sources are cached in its sources/), TRANSCODER_CONCURRENCY (encodes at a
 * time; default: CPU count), TRANSCODER_LIGHT_CONCURRENCY (metadata and previews at a time, beside the
 * encodes; default: the same), TRANSCODER_NAME (worker_info),
 * TRANSCODER_PART_SIZE (outputs over it go to the Worker in parts; default 90 MiB, at least 5 MiB).
 */
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { makeExecutor } from "./job.mjs";
import { createQueue } from "./queue.mjs";
import { createSourceCache } from "./source-cache.mjs";
import { ffmpegPath, ffprobePath } from "./tools.mjs";

const port = Number(process.env.TRANSCODER_PORT ?? 8788);
const host = process.env.TRANSCODER_HOST ?? "127.0.0.1";
const token = process.env.TRANSCODER_TOKEN ?? "";
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
const queue = createQueue({ stateDir, concurrency, lightConcurrency, execute: makeExecutor({ workerName, sources }), onForget: dropUnusedSource });

function send(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readJson(req) {
  let raw = "";
  for await (const chunk of req) {
    raw += chunk;
    if (raw.length > 1_000_000) throw new Error("body too large");
  }
  return JSON.parse(raw || "{}");
}

const validJob = (j) =>
  j && typeof j.id === "string" && Number.isInteger(j.run) && typeof j.operation === "string" && j.source?.url && j.callback?.url && j.callback?.token && typeof j.outputs === "object";

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/health") return send(res, 200, { ok: true, ...queue.stats(), worker: workerName, ffmpeg: ffmpegPath, ffprobe: ffprobePath });
    if (token && req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: "unauthorized" });
    const m = /^\/tasks(?:\/([0-9a-f-]{36})(\/priority)?)?$/.exec(url.pathname);
    if (!m) return send(res, 404, { error: "not found" });
    const [, id, priority] = m;
    if (!id && req.method === "POST") {
      const job = await readJson(req);
      if (!validJob(job)) return send(res, 400, { error: "invalid job" });
      const r = queue.add(job);
      return send(res, r.stale ? 409 : 202, { ...r, worker: workerName });
    }
    if (id && priority && req.method === "POST") {
      const body = await readJson(req);
      return queue.setPriority(id, Number(body.priority) || 0) ? send(res, 200, { ok: true }) : send(res, 404, { error: "unknown task" });
    }
    if (id && req.method === "GET") {
      const j = queue.get(id);
      return j ? send(res, 200, j) : send(res, 404, { error: "unknown task" });
    }
    if (id && req.method === "DELETE") return send(res, 200, { removed: queue.remove(id) });
    return send(res, 405, { error: "method not allowed" });
  } catch (err) {
    send(res, 400, { error: String(err.message ?? err) });
  }
});

server.listen(port, host, () => {
  const restored = queue.restore();
  console.log(`transcoder on http://${host}:${port} (concurrency ${concurrency} encodes + ${lightConcurrency} light, ffmpeg ${ffmpegPath}${restored ? `, ${restored} job(s) taken up from the journal` : ""})`);
});

for (const sig of ["SIGINT", "SIGTERM"]) {
  // Jobs stay in the journal: the next start takes them up.
  process.on(sig, () => {
    queue.shutdown();
    server.close();
    setTimeout(() => process.exit(0), 200);
  });
}
