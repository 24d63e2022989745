import { describe, expect, it } from "vitest";
import { taskLine } from "../../transcoder/task-line.mjs";

/** The transcoder's per-task log line (transcoder/task-line.mjs): the job's identity and timing, never its URLs or token. */
describe("taskLine", () => {
  const job = {
    id: "0f3a2c1e-1111-4222-8333-444455556666",
    run: 2,
    operation: "proxy",
    priority: 5,
    source: { url: "https://mam.example/api/signed/get?sig=SIGNATURE123", key: "k", mime: "video/mp4" },
    callback: { url: "https://mam.example/api/task-cb/x", token: "CALLBACKTOKEN" },
    outputs: [{ name: "proxy", url: "https://mam.example/api/signed/put?sig=PUTSIG" }],
    setup: { file_name: "Отпуск 2024.mp4" },
  };

  it("is one JSON line with the task, its run, lane, outcome and timings", () => {
    const parsed = JSON.parse(taskLine({ job, outcome: "done", queuedMs: 1500.4, durationMs: 8000.6, worker: "w1" }));
    expect(parsed).toMatchObject({
      type: "task",
      task_id: job.id,
      run: 2,
      operation: "proxy",
      lane: "encode",
      priority: 5,
      outcome: "done",
      queued_ms: 1500,
      duration_ms: 8001,
      worker: "w1",
    });
    expect(Number.isNaN(Date.parse(parsed.time))).toBe(false);
  });

  it("puts metadata and previews in the light lane", () => {
    expect(JSON.parse(taskLine({ job: { ...job, operation: "preview" }, outcome: "error", queuedMs: 0, durationMs: 1 })).lane).toBe(
      "light",
    );
  });

  it("never carries the signed URLs, the callback token or file names", () => {
    const line = taskLine({ job, outcome: "error", queuedMs: 0, durationMs: 0 });
    for (const s of ["SIGNATURE123", "CALLBACKTOKEN", "PUTSIG", "Отпуск", "https://"]) expect(line).not.toContain(s);
  });
});

describe("the queue's log", () => {
  it("writes one task line per run with the executor's outcome", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { createQueue } = await import("../../transcoder/queue.mjs");
    const dir = mkdtempSync(path.join(tmpdir(), "mam-tl-"));
    const lines: string[] = [];
    const outcomes = ["done", "error"];
    const queue = createQueue({
      stateDir: dir,
      concurrency: 1,
      execute: async () => outcomes.shift(),
      log: (l: string) => lines.push(l),
      worker: "w",
    });
    queue.add({ id: "00000000-0000-4000-8000-000000000001", run: 1, operation: "proxy" });
    queue.add({ id: "00000000-0000-4000-8000-000000000002", run: 1, operation: "metadata" });
    await new Promise((r) => setTimeout(r, 20));
    rmSync(dir, { recursive: true, force: true });
    expect(lines.map((l) => JSON.parse(l)).map((l) => [l.task_id.slice(-1), l.outcome, l.worker])).toEqual([
      ["1", "done", "w"],
      ["2", "error", "w"],
    ]);
  });
});
