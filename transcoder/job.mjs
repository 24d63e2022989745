/**
 * Runs one job end to end: get the source (from the shared cache when the job names its source, else
 * downloaded for this job alone), run the operation, upload the outputs, report the result. Progress
 * and log lines go to the Worker at most every `progressEveryMs`; a 409 from the Worker (the run is no longer
 * wanted) or an abort (pause, cancel, replaced) stops it quietly. Each phase's duration goes to the log.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { operations } from "./ops/index.mjs";
import { Stale, workerApi } from "./worker-api.mjs";

/**
 * Each progress call costs the Worker a read and a write batch (locally: CPU on the cores ffmpeg uses), so
 * a two-minute encode reports some 60 times rather than 120; the jobs screen still moves every 2 s.
 */
const progressEveryMs = 2000;
const seconds = (t0) => `${((Date.now() - t0) / 1000).toFixed(2)} с`;

/**
 * @param {{ workerName: string, tmpRoot?: string, sources: import("./source-cache.mjs").SourceCache }} options
 */
export function makeExecutor({ workerName, tmpRoot, sources }) {
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
        if (Date.now() - last < progressEveryMs || Math.floor(pct) === lastPct) return;
        lastPct = Math.floor(pct);
        flush({ progress: pct, progress_info: info }).catch((err) => err.stale && ctx.abortStale?.());
      },
    };
    try {
      await flush({ progress: 0, progress_info: "Загрузка исходника" });
      let t0 = Date.now();
      const shared = sources && job.source.key;
      const { file, sha256 } = shared
        ? await sources.get(job.source.key, api.download, signal)
        : { file: path.join(dir, "source"), sha256: await api.download(path.join(dir, "source")) };
      ctx.src = file;
      ctx.log(`Исходник получен за ${seconds(t0)}${shared ? " (общий для задач файла)" : ""} (${job.source.mime}), sha256 ${sha256}`);
      const op = operations[job.operation];
      if (!op) throw new Error(`Неизвестная операция «${job.operation}»`);
      t0 = Date.now();
      const out = await op(job, ctx);
      ctx.log(`Операция ${job.operation} заняла ${seconds(t0)}`);
      await flush({ progress: 99, progress_info: "Выгрузка результата" });
      for (const o of out.outputs ?? []) {
        t0 = Date.now();
        const sent = await api.upload(o.name, o.file, o.mime);
        ctx.log(`Выход ${o.name}: ${sent.size} байт${sent.parts > 1 ? `, частями: ${sent.parts}` : ""}, выгружен за ${seconds(t0)}`);
      }
      const tech = job.operation === "metadata" ? { ...out.tech, sha256 } : out.tech;
      await api.result({
        tech,
        outputs: (out.outputs ?? []).map(({ file, ...o }) => o),
        lines: pending.splice(0),
        ...(out.text !== undefined ? { text: out.text } : {}),
        ...(out.transcript !== undefined ? { transcript: out.transcript } : {}),
      });
      return "done";
    } catch (err) {
      if (signal.aborted || err instanceof Stale) return "stopped"; // paused, cancelled or superseded: the Worker knows already
      await api
        .fail({ error: (err instanceof Error ? err.message : String(err)).slice(0, 4000), lines: pending.splice(0).slice(-100) })
        .catch(() => {});
      return "error";
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
