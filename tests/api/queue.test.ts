import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events, taskLogs, tasks, variants } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { handleQueue, retryDelay } from "../../queues/index";
import { sweepWaitingTasks } from "../../functions/tasks/upload-tasks";
import type { JobMessage } from "../../queues/messages";
import { admin, call, mkGroup, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { fakeTranscoder, mkMediaAsset, mkTask, T, taskRow, type FakeTranscoder } from "./tasks.helpers";

/** The JOBS consumer and the transcoder's callbacks, with a fake transcoder (a function) and a recording queue. */

const db = () => getDb(env);
let adminId: string;
let group: string;

beforeAll(async () => {
  adminId = (await call("/api/auth/whoami", { bearer: await admin() })).body.id;
  group = await mkGroup(VIRTUAL_ROOT);
});

let seq = 0;
async function deliver(fake: FakeTranscoder, body: JobMessage, opts: { attempts?: number; queue?: string } = {}) {
  const batch = createMessageBatch<JobMessage>(opts.queue ?? "mam-jobs", [
    { id: `m${++seq}`, timestamp: new Date(), attempts: opts.attempts ?? 1, body },
  ]);
  const ctx = createExecutionContext();
  await handleQueue(batch, fake.env);
  return getQueueResult(batch, ctx);
}

const uploadFinished = (a: { assetId: string; variantId: string }, mime = "video/mp4"): JobMessage => ({
  type: "upload-finished",
  assetId: a.assetId,
  version: 1,
  variantId: a.variantId,
  variantType: "initial",
  size: 18,
  mime,
  sha256: null,
  userId: adminId,
});

const tasksOf = (variantId: string) => db().select().from(tasks).where(eq(tasks.srcEntity, variantId)).all();

/** Plays the transcoder: a callback with the job's token. */
const cb = (job: any, path: string, json: unknown) =>
  api(`${job.callback.url}/${path}`, { method: "POST", headers: { "X-Task-Token": job.callback.token }, json });

async function putOut(job: any, name: string, bytes: Uint8Array, mime: string) {
  return api(job.outputs[name], {
    method: "PUT",
    headers: { "X-Task-Token": job.callback.token, "Content-Type": mime, "Content-Length": String(bytes.length) },
    body: bytes as BodyInit,
  });
}

describe("upload-finished", () => {
  it("starts the default templates for the file's kind, once, however often the message comes", async () => {
    const fake = fakeTranscoder();
    const a = await mkMediaAsset(group, adminId);
    const first = await deliver(fake, uploadFinished(a));
    expect(first.explicitAcks).toEqual([`m${seq}`]);
    const made = await tasksOf(a.variantId);
    expect(made.map((t) => t.templateId).sort()).toEqual([T.metadata, T.preview, T.proxyLow, T.proxyHigh].sort());
    expect(made.every((t) => t.status === "inqueue" && t.owner === adminId)).toBe(true);
    expect(fake.sent.map((m) => m.body)).toEqual(expect.arrayContaining(made.map((t) => ({ type: "task-run", jobId: t.jobId }))));
    await deliver(fake, uploadFinished(a));
    expect(await tasksOf(a.variantId)).toHaveLength(4);
    const created = await db()
      .select()
      .from(events)
      .where(and(eq(events.kind, "task.create"), eq(events.entityId, made[0].jobId)))
      .all();
    expect(created).toHaveLength(1);
  });

  it("images get metadata and a preview, audio metadata, a waveform preview and an audio proxy, a PDF its preview, text and proxy", async () => {
    const fake = fakeTranscoder();
    const img = await mkMediaAsset(group, adminId, { mime: "image/jpeg", name: "Фото.jpg" });
    await deliver(fake, uploadFinished(img, "image/jpeg"));
    expect((await tasksOf(img.variantId)).map((t) => t.templateId).sort()).toEqual([T.metadata, T.preview].sort());
    const snd = await mkMediaAsset(group, adminId, { mime: "audio/mpeg", name: "Звук.mp3" });
    await deliver(fake, uploadFinished(snd, "audio/mpeg"));
    expect((await tasksOf(snd.variantId)).map((t) => t.templateId).sort()).toEqual([T.metadata, T.preview, T.audio].sort());
    const pdf = await mkMediaAsset(group, adminId, { mime: "application/pdf", name: "Договор.pdf" });
    await deliver(fake, uploadFinished(pdf, "application/pdf"));
    expect((await tasksOf(pdf.variantId)).map((t) => t.templateId).sort()).toEqual([T.metadata, T.preview, T.text, T.pdfProxy].sort());
  });
});

describe("task-run and the callbacks", () => {
  it("hands over signed URLs and a token, then registers the result once", async () => {
    const fake = fakeTranscoder();
    const a = await mkMediaAsset(group, adminId);
    const id = await mkTask(a, "inqueue", T.proxyLow);
    const res = await deliver(fake, { type: "task-run", jobId: id });
    expect(res.explicitAcks).toHaveLength(1);
    const job = fake.jobs[0];
    expect(job).toMatchObject({ id, run: 1, operation: "proxy", setup: { height: 360, codec: "h264" }, source: { mime: "video/mp4" } });
    // The transcoder shares one download among the tasks of these bytes: asset/version/variant/etag.
    expect(job.source.key).toMatch(new RegExp(`^${a.assetId}/1/${a.variantId}/.+`));
    expect(JSON.stringify(job)).not.toMatch(/secret|passwd|access_key/i);
    expect(fake.sent).toEqual([{ body: { type: "task-run", jobId: id, run: 1 }, delaySeconds: 30 }]);
    expect(await taskRow(id)).toMatchObject({ workerInfo: "fake-transcoder", run: 1, status: "inqueue" });
    // The source URL works without a bearer; a second delivery of the same message hands nothing over again.
    const src = await api(job.source.url);
    expect(new TextDecoder().decode(await src.arrayBuffer())).toBe("not really a video");
    await deliver(fake, { type: "task-run", jobId: id });
    expect(fake.jobs).toHaveLength(1);

    expect(
      (
        await cb(job, "progress", {
          run: 1,
          progress: 40,
          progress_info: "00:00:02 из 00:00:05",
          worker_info: "host-1",
          lines: ["frame=50"],
        })
      ).status,
    ).toBe(200);
    expect(await taskRow(id)).toMatchObject({
      status: "running",
      progress: 40,
      progressInfo: "00:00:02 из 00:00:05",
      workerInfo: "host-1",
    });
    const bytes = new TextEncoder().encode("fake mp4 bytes");
    expect((await putOut(job, "proxy", bytes, "video/mp4")).status).toBe(200);
    const result = {
      run: 1,
      outputs: [{ name: "proxy", mime: "video/mp4", format: "mp4", tech: { video_codec: "h264", height: 360 } }],
      lines: ["готово"],
    };
    const done = await cb(job, "result", result);
    expect(done.status, await done.clone().text()).toBe(200);
    const t = await taskRow(id);
    expect(t).toMatchObject({ status: "done", progress: 100 });
    const v = await db().select().from(variants).where(eq(variants.variantId, t.dstEntity!)).get();
    expect(v).toMatchObject({
      variantType: "proxy_lowres",
      mimeType: "video/mp4",
      contentSize: bytes.length,
      techProps: { video_codec: "h264", height: 360 },
    });
    // A duplicate result is refused (409) and changes nothing.
    expect((await cb(job, "result", result)).status).toBe(409);
    expect(
      await db()
        .select()
        .from(variants)
        .where(and(eq(variants.assetId, a.assetId), eq(variants.variantType, "proxy_lowres")))
        .all(),
    ).toHaveLength(1);
    const kinds = (await db().select().from(events).where(eq(events.entityId, id)).all()).map(
      (e) => (e.data as { event?: string }).event ?? e.kind,
    );
    expect(kinds).toEqual(["task.create", "started", "finished"]);
  });

  it("metadata and preview write into the source variant; a wrong token or old run is refused", async () => {
    const fake = fakeTranscoder();
    const a = await mkMediaAsset(group, adminId);
    const id = await mkTask(a, "inqueue", T.preview);
    await deliver(fake, { type: "task-run", jobId: id });
    const job = fake.jobs[0];
    expect((await cb({ ...job, callback: { ...job.callback, token: "forged" } }, "progress", { run: 1, progress: 1 })).status).toBe(401);
    expect((await cb(job, "progress", { run: 2, progress: 1 })).status).toBe(409);
    expect((await cb(job, "progress", { run: "x" })).status).toBe(400);
    const forged = job.outputs.preview.replace(/sig=[0-9a-f]+/, `sig=${"0".repeat(64)}`);
    expect(
      (await api(forged, { method: "PUT", headers: { "X-Task-Token": job.callback.token, "Content-Length": "1" }, body: "x" })).status,
    ).toBe(403);
    expect((await putOut(job, "preview", new Uint8Array([0xff, 0xd8, 0xff]), "image/jpeg")).status).toBe(200);
    expect(
      (
        await cb(job, "result", {
          run: 1,
          outputs: [{ name: "preview", mime: "image/jpeg" }],
          tech: { duration: 5, width: 1280, height: 720 },
        })
      ).status,
    ).toBe(200);
    const v = await db().select().from(variants).where(eq(variants.variantId, a.variantId)).get();
    expect(v?.previewKey).toBe(`tasks/${id}/r1/preview`);
    expect(v?.techProps).toMatchObject({ duration: 5, width: 1280, height: 720 });
    const preview = await api(`/api/asset/content/preview/${a.assetId}/1/${a.variantId}`, {
      bearer: await admin(),
    });
    expect([preview.status, new Uint8Array(await preview.arrayBuffer())[0]]).toEqual([200, 0xff]);
  });

  it("a wrong token answers 401 with the error envelope only, whatever run it names: nothing about the task", async () => {
    const fake = fakeTranscoder();
    const id = await mkTask(await mkMediaAsset(group, adminId), "inqueue", T.preview);
    await deliver(fake, { type: "task-run", jobId: id });
    const forged = { ...fake.jobs[0], callback: { ...fake.jobs[0].callback, token: "forged" } };
    for (const [path, body] of [
      ["progress", { run: 1, progress: 1 }],
      ["progress", { run: 7, progress: 1 }],
      ["result", { run: 2 }],
      ["fail", { run: 1, error: "x" }],
    ] as const) {
      const res = await cb(forged, path, body);
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(Object.keys(JSON.parse(text).error).sort()).toEqual(["code", "message", "requestId"]);
      expect(text).not.toMatch(/inqueue|running|запуск|status/i);
    }
    // The same answer for a task that does not exist.
    const none = await cb(
      { ...forged, callback: { ...forged.callback, url: forged.callback.url.replace(id, crypto.randomUUID()) } },
      "progress",
      { run: 1 },
    );
    expect([none.status, Object.keys(((await none.json()) as { error: object }).error).sort()]).toEqual([
      401,
      ["code", "message", "requestId"],
    ]);
    expect(await taskRow(id)).toMatchObject({ status: "inqueue" });
  });

  it("a failure ends the task in error with the transcoder's log lines", async () => {
    const fake = fakeTranscoder();
    const id = await mkTask(await mkMediaAsset(group, adminId), "inqueue", T.metadata);
    await deliver(fake, { type: "task-run", jobId: id });
    const r = await cb(fake.jobs[0], "fail", {
      run: 1,
      error: "ffprobe: Invalid data found when processing input",
      lines: ["ffprobe exited with 1"],
    });
    expect(r.status).toBe(200);
    expect(await taskRow(id)).toMatchObject({ status: "error", error: "ffprobe: Invalid data found when processing input" });
    const log = await db().select().from(taskLogs).where(eq(taskLogs.jobId, id)).all();
    expect(log.map((l) => l.line)).toEqual(expect.arrayContaining(["ffprobe exited with 1", expect.stringContaining("Invalid data")]));
  });
});

describe("retries, dead letters, watches", () => {
  it("a transcoder that is down: retry with backoff, a log line per attempt, then error through the dead-letter queue", async () => {
    const fake = fakeTranscoder();
    fake.mode = "down";
    const id = await mkTask(await mkMediaAsset(group, adminId), "inqueue", T.proxyHigh);
    const r1 = await deliver(fake, { type: "task-run", jobId: id }, { attempts: 1 });
    expect(r1.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([`m${seq}`]);
    const r3 = await deliver(fake, { type: "task-run", jobId: id }, { attempts: 3 });
    expect(r3.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([`m${seq}`]);
    expect([1, 2, 3, 4, 5, 9].map((n) => retryDelay(fake.env, n))).toEqual([5, 10, 20, 40, 80, 300]);
    expect(await taskRow(id)).toMatchObject({ status: "inqueue", run: 2 });
    const dead = await deliver(fake, { type: "task-run", jobId: id }, { queue: "mam-jobs-dead" });
    expect(dead.explicitAcks).toHaveLength(1);
    const t = await taskRow(id);
    expect(t).toMatchObject({ status: "error", error: expect.stringContaining("Транскодер недоступен") });
    const lines = (await db().select().from(taskLogs).where(eq(taskLogs.jobId, id)).all()).map((l) => l.line);
    expect(lines.filter((l) => l.includes("транскодер недоступен"))).toHaveLength(2);
    // Dead letters of a task that finished meanwhile change nothing.
    await deliver(fake, { type: "task-run", jobId: id }, { queue: "mam-jobs-dead" });
    expect((await taskRow(id)).status).toBe("error");
  });

  it("a watch that finds the task gone from the transcoder hands it over again; the old run is refused", async () => {
    const fake = fakeTranscoder();
    const id = await mkTask(await mkMediaAsset(group, adminId), "inqueue", T.proxyLow);
    await deliver(fake, { type: "task-run", jobId: id });
    const old = fake.jobs[0];
    await cb(old, "progress", { run: 1, progress: 30 });
    await deliver(fake, { type: "task-run", jobId: id, run: 1 });
    expect(fake.jobs).toHaveLength(1); // still held: only another watch
    expect(fake.sent.at(-1)).toEqual({ body: { type: "task-run", jobId: id, run: 1 }, delaySeconds: 30 });
    fake.mode = "forgetful";
    await deliver(fake, { type: "task-run", jobId: id, run: 1 });
    expect(fake.jobs).toHaveLength(2);
    expect(fake.jobs[1].run).toBe(2);
    expect(await taskRow(id)).toMatchObject({ status: "inqueue", run: 2 });
    // The old run's token is no longer the task's: 401, which the transcoder takes as "stop this job", like a 409.
    expect((await cb(old, "progress", { run: 1, progress: 50 })).status).toBe(401);
    // A watch of an old run ends its chain.
    const before = fake.sent.length;
    await deliver(fake, { type: "task-run", jobId: id, run: 1 });
    expect(fake.sent.length).toBe(before);
  });

  it("the cron sweep hands over queued tasks that nobody handed over", async () => {
    const fake = fakeTranscoder();
    const id = await mkTask(await mkMediaAsset(group, adminId), "inqueue", T.metadata);
    await db().update(tasks).set({ mtime: 1 }).where(eq(tasks.jobId, id));
    expect(await sweepWaitingTasks(fake.env)).toBeGreaterThanOrEqual(1);
    expect(fake.sent.map((m) => m.body)).toContainEqual({ type: "task-run", jobId: id });
  });

  it("pause tells the transcoder, refuses the paused run's callbacks, and resume hands over a new run", async () => {
    const fake = fakeTranscoder();
    const id = await mkTask(await mkMediaAsset(group, adminId), "inqueue", T.proxyLow);
    await deliver(fake, { type: "task-run", jobId: id });
    const job = fake.jobs[0];
    await cb(job, "progress", { run: 1, progress: 10 });
    const bearer = await admin();
    // The API call goes to the Worker (real env: no transcoder configured), so run the transcoder side by hand.
    expect((await call(`/api/tasklist/command/${id}`, { method: "POST", json: { command: "pause" }, bearer })).body.status).toBe("paused");
    expect((await cb(job, "progress", { run: 1, progress: 20 })).status).toBe(409);
    expect((await cb(job, "result", { run: 1 })).status).toBe(409);
    expect((await call(`/api/tasklist/command/${id}`, { method: "POST", json: { command: "resume" }, bearer })).body.status).toBe(
      "inqueue",
    );
    await deliver(fake, { type: "task-run", jobId: id });
    expect(fake.jobs.at(-1)).toMatchObject({ id, run: 3 }); // resume retired run 2, the hand-over made run 3
  });
});
