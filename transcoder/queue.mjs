/**
 * The transcoder's work queue: highest priority first (then oldest), and a journal — one JSON file per
 * accepted job in the state directory, removed when the job ends — so a restarted (or crashed)
 * transcoder takes up every job it had accepted, running ones from the start.
 *
 * Jobs run in two lanes, each with its own number of slots: encodes (proxies, watermarks: minutes of
 * CPU) take `concurrency`, short jobs (metadata, previews: a probe or one frame) take `lightConcurrency`.
 * So a video's preview does not wait behind its proxies, nor its proxies behind its preview.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from "node:fs";
import path from "node:path";

import { laneOf } from "./lanes.mjs";
import { taskLine } from "./task-line.mjs";

export { laneOf };

/**
 * `onForget(job, remaining)`: a job ended or was removed; `remaining` are the jobs still held. `log` gets one JSON
 * line per job run (task-line.mjs); `execute` resolves to its outcome ("done", "error", "stopped").
 */
export function createQueue({
  stateDir,
  concurrency,
  lightConcurrency = concurrency,
  execute,
  onForget = (_job, _remaining) => {},
  log = (line) => console.log(line),
  worker = /** @type {string | null} */ (null),
}) {
  const slots = { encode: concurrency, light: lightConcurrency };
  mkdirSync(stateDir, { recursive: true });
  /** id → { job, state: "queued" | "running", seq, accepted, controller } */
  const jobs = new Map();
  let seq = 0;
  let lastAccepted = 0; // strictly increasing, even for two jobs in the same millisecond
  let stopping = false;
  const file = (id) => path.join(stateDir, `${id}.json`);

  /** The entry keeps when the job was accepted, so a restart keeps "oldest first" among equal priorities. */
  function persist(job, accepted) {
    const tmp = `${file(job.id)}.tmp`;
    writeFileSync(tmp, JSON.stringify({ accepted, job }));
    renameSync(tmp, file(job.id)); // atomic: a crash never leaves half a journal entry
  }

  function forget(id) {
    const e = jobs.get(id);
    jobs.delete(id);
    rmSync(file(id), { force: true });
    if (e)
      onForget(
        e.job,
        [...jobs.values()].map((x) => x.job),
      );
  }

  /** The next job to start: highest priority, then oldest, among the queued jobs of a lane with a free slot. */
  function nextJob() {
    const running = { encode: 0, light: 0 };
    for (const e of jobs.values()) if (e.state === "running") running[laneOf(e.job)]++;
    return [...jobs.values()]
      .filter((e) => e.state === "queued" && running[laneOf(e.job)] < slots[laneOf(e.job)])
      .sort((a, b) => (b.job.priority ?? 0) - (a.job.priority ?? 0) || a.seq - b.seq)[0];
  }

  function pump() {
    const next = nextJob();
    if (!next) return;
    next.state = "running";
    next.controller = new AbortController();
    const entry = next;
    const started = Date.now();
    execute(entry.job, entry.controller.signal)
      .then(
        (outcome) => outcome ?? "done",
        (err) => {
          console.error(`job ${entry.job.id}:`, err.message);
          return "error";
        },
      )
      .then((outcome) =>
        log(taskLine({ job: entry.job, outcome, queuedMs: started - entry.accepted, durationMs: Date.now() - started, worker })),
      )
      .finally(() => {
        // A newer run may have replaced this entry meanwhile: only forget our own.
        if (stopping) return; // shutting down: the journal keeps the job for the next start
        if (jobs.get(entry.job.id) === entry) forget(entry.job.id);
        pump();
      });
    pump();
  }

  return {
    /** Accepts a job; the same id and run again is a no-op, a newer run replaces the older one. */
    add(job) {
      const cur = jobs.get(job.id);
      if (cur && cur.job.run === job.run) return { accepted: true, duplicate: true };
      if (cur && cur.job.run > job.run) return { accepted: false, stale: true };
      if (cur) cur.controller?.abort();
      lastAccepted = Math.max(Date.now(), lastAccepted + 1);
      const accepted = lastAccepted;
      persist(job, accepted);
      jobs.set(job.id, { job, state: "queued", seq: ++seq, accepted });
      pump();
      return { accepted: true };
    },
    get(id) {
      const e = jobs.get(id);
      return e && { id, run: e.job.run, state: e.state, priority: e.job.priority ?? 0 };
    },
    remove(id) {
      const e = jobs.get(id);
      if (!e) return false;
      e.controller?.abort();
      forget(id);
      pump();
      return true;
    },
    setPriority(id, priority) {
      const e = jobs.get(id);
      if (!e) return false;
      e.job.priority = priority;
      persist(e.job, e.accepted);
      return true;
    },
    stats() {
      const all = [...jobs.values()];
      return {
        queued: all.filter((e) => e.state === "queued").length,
        running: all.filter((e) => e.state === "running").length,
        concurrency,
        light_concurrency: lightConcurrency,
      };
    },
    /** Stops every running ffmpeg but keeps the journal: the next start runs those jobs again. */
    shutdown() {
      stopping = true;
      for (const e of jobs.values()) e.controller?.abort();
    },
    /** Takes up the journal after a restart. */
    restore() {
      const entries = readdirSync(stateDir).filter((f) => f.endsWith(".json"));
      const restored = [];
      for (const f of entries) {
        try {
          const entry = JSON.parse(readFileSync(path.join(stateDir, f), "utf8"));
          // Journals written before entries carried `accepted` hold the bare job.
          restored.push(entry.job ? entry : { accepted: 0, job: entry });
        } catch {
          rmSync(path.join(stateDir, f), { force: true });
        }
      }
      // seq follows acceptance, so pump() keeps "highest priority, then oldest" across the restart.
      for (const { job, accepted } of restored.sort((a, b) => a.accepted - b.accepted)) {
        jobs.set(job.id, { job, state: "queued", seq: ++seq, accepted });
        lastAccepted = Math.max(lastAccepted, accepted);
      }
      pump();
      return restored.length;
    },
  };
}
