import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createQueue } from "../../transcoder/queue.mjs";

/**
 * The transcoder's work queue (transcoder/queue.mjs) with a stand-in for ffmpeg: the executor only
 * records which job started and lets the test finish it. That higher priority runs first among queued
 * tasks is checked here, and so is the journal that lets a restarted transcoder lose nothing.
 */
type Job = { id: string; run: number; priority?: number; operation: string };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stateDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "mam-tq-"));
  dirs.push(d);
  return d;
};
const settle = () => new Promise((r) => setImmediate(r));
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const job = (n: number, priority = 0, run = 1): Job => ({ id: id(n), run, priority, operation: "proxy" });

function harness(dir = stateDir(), concurrency = 1) {
  const started: string[] = [];
  const pending = new Map<string, { done: () => void; signal: AbortSignal }>();
  const execute = (j: Job, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      started.push(j.id);
      pending.set(j.id, { done: resolve, signal });
      signal.addEventListener("abort", () => reject(new Error("aborted")));
    });
  const queue = createQueue({ stateDir: dir, concurrency, execute });
  /** Ends the running job `n` and lets the queue start the next one. */
  const finish = async (n: number) => {
    pending.get(id(n))!.done();
    await settle();
  };
  const order = () => started.map((s) => Number(s.slice(-12)));
  return { queue, started, pending, finish, order, dir };
}

describe("transcoder queue order", () => {
  it("runs the highest priority first, the oldest first among equals", async () => {
    const h = harness();
    h.queue.add(job(1)); // starts at once: the only slot
    for (const [n, p] of [
      [2, 0],
      [3, 5],
      [4, -3],
      [5, 5],
      [6, 0],
    ])
      h.queue.add(job(n, p));
    expect(h.order()).toEqual([1]);
    expect(h.queue.stats()).toMatchObject({ queued: 5, running: 1 });
    for (const n of [1, 3, 5, 2, 6]) await h.finish(n);
    expect(h.order()).toEqual([1, 3, 5, 2, 6, 4]);
  });

  it("a priority changed while queued reorders the queue", async () => {
    const h = harness();
    h.queue.add(job(1));
    h.queue.add(job(2));
    h.queue.add(job(3));
    expect(h.queue.setPriority(id(3), 10)).toBe(true);
    expect(h.queue.get(id(3))).toMatchObject({ state: "queued", priority: 10 });
    await h.finish(1);
    expect(h.order()).toEqual([1, 3]);
  });

  it("runs `concurrency` jobs at a time", async () => {
    const h = harness(stateDir(), 2);
    for (const n of [1, 2, 3]) h.queue.add(job(n));
    expect(h.order()).toEqual([1, 2]);
    await h.finish(2);
    expect(h.order()).toEqual([1, 2, 3]);
  });

  it("short jobs (metadata, previews) run in a lane of their own, beside the encodes", async () => {
    const started: string[] = [];
    const ends = new Map<string, () => void>();
    const execute = (j: Job) =>
      new Promise<void>((resolve) => {
        started.push(`${j.operation} ${Number(j.id.slice(-12))}`);
        ends.set(j.id, resolve);
      });
    const queue = createQueue({ stateDir: stateDir(), concurrency: 1, lightConcurrency: 1, execute });
    for (const [n, operation] of [
      [1, "proxy"],
      [2, "proxy"],
      [3, "metadata"],
      [4, "preview"],
    ] as const)
      queue.add({ ...job(n), operation });
    expect(started).toEqual(["proxy 1", "metadata 3"]);
    ends.get(id(3))!();
    await settle();
    expect(started).toEqual(["proxy 1", "metadata 3", "preview 4"]);
    expect(queue.stats()).toMatchObject({ queued: 1, running: 2 });
  });

  it("tells onForget which jobs remain when one ends or is removed", async () => {
    const forgotten: [number, number[]][] = [];
    const ends = new Map<string, () => void>();
    const execute = (j: Job) => new Promise<void>((resolve) => ends.set(j.id, resolve));
    const num = (j: Job) => Number(j.id.slice(-12));
    const onForget = (j: Job, remaining: Job[]) => forgotten.push([num(j), remaining.map(num)]);
    const queue = createQueue({ stateDir: stateDir(), concurrency: 1, execute, onForget });
    for (const n of [1, 2, 3]) queue.add(job(n));
    queue.remove(id(3));
    ends.get(id(1))!();
    await settle();
    expect(forgotten).toEqual([
      [3, [1, 2]],
      [1, [2]],
    ]);
  });

  it("the same run again is a no-op, a newer run replaces the older one, an older run is refused", async () => {
    const h = harness();
    expect(h.queue.add(job(1))).toEqual({ accepted: true });
    expect(h.queue.add(job(1))).toEqual({ accepted: true, duplicate: true });
    const firstRun = h.pending.get(id(1))!.signal;
    expect(h.queue.add(job(1, 0, 2))).toEqual({ accepted: true });
    expect(firstRun.aborted).toBe(true); // the run-1 ffmpeg is stopped
    await settle();
    expect(h.order()).toEqual([1, 1]);
    expect(h.queue.get(id(1))).toMatchObject({ run: 2, state: "running" });
    expect(h.queue.add(job(1, 0, 1))).toEqual({ accepted: false, stale: true });
  });
});

describe("transcoder queue journal", () => {
  it("a restart takes up every accepted job, by priority then acceptance, and none that ended or were removed", async () => {
    const first = harness();
    first.queue.add(job(1));
    await first.finish(1); // ended: gone from the journal
    first.queue.add(job(2)); // running when the process dies
    for (const n of [3, 4, 5, 6]) first.queue.add(job(n));
    first.queue.setPriority(id(5), 3);
    first.queue.remove(id(6)); // paused or cancelled by the Worker
    expect(readdirSync(first.dir).sort()).toEqual([2, 3, 4, 5].map((n) => `${id(n)}.json`));

    // A crash: no shutdown, a new process on the same state directory.
    const second = harness(first.dir);
    expect(second.queue.restore()).toBe(4);
    expect(second.order()).toEqual([5]);
    for (const n of [5, 2, 3]) await second.finish(n);
    expect(second.order()).toEqual([5, 2, 3, 4]);
    expect(second.queue.get(id(2))).toBeUndefined();
    await second.finish(4);
    expect(readdirSync(first.dir)).toEqual([]);
  });

  it("shutdown stops the running job but keeps it in the journal for the next start", async () => {
    const first = harness();
    first.queue.add(job(1));
    first.queue.add(job(2));
    first.queue.shutdown();
    expect(first.pending.get(id(1))!.signal.aborted).toBe(true);
    await settle();
    expect(existsSync(path.join(first.dir, `${id(1)}.json`))).toBe(true);
    const second = harness(first.dir);
    expect(second.queue.restore()).toBe(2);
    expect(second.order()).toEqual([1]);
  });

  it("drops a corrupt entry and takes up one in the older bare-job format", () => {
    const dir = stateDir();
    writeFileSync(path.join(dir, "broken.json"), "{");
    writeFileSync(path.join(dir, `${id(7)}.json`), JSON.stringify(job(7)));
    const h = harness(dir);
    expect(h.queue.restore()).toBe(1);
    expect(h.order()).toEqual([7]);
    expect(existsSync(path.join(dir, "broken.json"))).toBe(false);
  });
});
