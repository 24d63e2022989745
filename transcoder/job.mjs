/**
 * Runs one job end to end: download the source, run the operation, upload the outputs, report the
 * result. Progress and log lines go to the Worker at most once a second; a 409 from the Worker (the
 * run is no longer wanted) or an abort (pause, cancel, replaced) stops it quietly.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { operations } from "./ops/index.mjs";
import { workerApi } from "./worker-api.mjs";

export function makeExecutor({ workerName, tmpRoot }) {
  return async function execute(job, signal) {
    const api = workerApi(job, signal);
    const dir = await mkdtemp(path.join(tmpRoot ?? os.tmpdir(), `mam-job-`));
    const pending = [];
    const tail = [];
    let last = 0;
    let lastPct = -1;
    const flush = async (extra = {}) => {
      const lines = pending.splice(0, pending.length);
      last = Date.now();
      await api.progress({ ...extra, lines, worker_info: workerName });
    };
    const ctx = {
      dir,
      signal,
      log: (line) => {
        pending.push(line);
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (pending.length > 200) pending.splice(0, pending.length - 200);
      },
      progress: (pct, info) => {
        if (Date.now() - last < 1000 || Math.floor(pct) === lastPct) return;
        lastPct = Math.floor(pct);
        flush({ progress: pct, progress_info: info }).catch((err) => err.stale && ctx.abortStale?.());
      },
    };
    try {
      await flush({ progress: 0, progress_info: "Загрузка исходника" });
      ctx.src = path.join(dir, "source");
      const sha256 = await api.download(ctx.src);
      ctx.log(`Исходник получен (${job.source.mime}), sha256 ${sha256}`);
      const op = operations[job.operation];
      if (!op) throw new Error(`Неизвестная операция «${job.operation}»`);
      const t0 = Date.now();
      const out = await op(job, ctx);
      ctx.log(`Операция ${job.operation} заняла ${((Date.now() - t0) / 1000).toFixed(2)} с`);
      await flush({ progress: 99, progress_info: "Выгрузка результата" });
      for (const o of out.outputs ?? []) {
        const sent = await api.upload(o.name, o.file, o.mime);
        ctx.log(`Выход ${o.name}: ${sent.size} байт${sent.parts > 1 ? `, частями: ${sent.parts}` : ""}`);
      }
      const tech = job.operation === "metadata" ? { ...out.tech, sha256 } : out.tech;
      await api.result({ tech, outputs: (out.outputs ?? []).map(({ file, ...o }) => o), lines: pending.splice(0) });
    } catch (err) {
      if (signal.aborted || err.stale) return; // paused, cancelled or superseded: the Worker knows already
      await api.fail({ error: String(err.message ?? err).slice(0, 4000), lines: pending.splice(0).slice(-100) }).catch(() => {});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
