import { and, eq, inArray } from "drizzle-orm";
import { defaultStorageId, tasks, variants, type Task } from "../../db/schema";
import { batchAll } from "../lib/batch";
import { configOf } from "../lib/config";
import { nowSeconds } from "../../db/schema/columns";
import { getDb, type Db } from "../lib/db";
import type { Env } from "../lib/env";
import { randomSecret, sha256Hex } from "../lib/ids";
import { driverFor, getStorage } from "../lib/storage";
import { taskSourceUrl } from "../assets/play-links";
import { signUrl } from "../lib/sign";
import { sourceVariant } from "./commands";
import { logInserts, outputNames, stagingKey } from "./outputs";
import { systemStatusFollowUps } from "./record";
import { transcoderConfigured, transcoderFetch } from "./transcoder";
import { liveStatuses } from "../../shared/tasks/transitions";
import { WHISPER_MODEL } from "../transcripts/workers-ai";

/**
 * The queue side of a task (decision 011). A `task-run` message without `run` hands the task to the
 * transcoder; after a hand-over the same message type comes back delayed, with the run, to check the
 * transcoder still holds it (a watch). Network failures throw, so the queue retries with backoff
 * and, after max_retries, moves the message to the dead-letter queue, where failTaskForGood ends it.
 */
const urlTtlSeconds = 24 * 3600;

export class TranscoderDown extends Error {}

export async function runTask(env: Env, jobId: string, run: number | undefined, attempt: number) {
  const db = getDb(env);
  const t = await db.select().from(tasks).where(eq(tasks.jobId, jobId)).get();
  if (!t || !liveStatuses.includes(t.status)) return; // paused, cancelled, finished: nothing to do
  if (!transcoderConfigured(env)) return; // no TRANSCODER_URL: it waits; restart or resume hands it over later
  if (run !== undefined && run !== t.run) return; // a watch of an older hand-over: that chain ends here
  if (t.workerInfo) {
    if (run === undefined) return; // already handed over; its watch chain looks after it
    const held = await ask(env, t, attempt);
    if (held)
      return void (await env.JOBS.send({ type: "task-run", jobId, run: t.run }, { delaySeconds: configOf(env).TASK_WATCH_SECONDS }));
    await db.batch([
      db
        .update(tasks)
        .set({ workerInfo: null, status: "inqueue" })
        .where(and(eq(tasks.jobId, jobId), eq(tasks.run, t.run), inArray(tasks.status, [...liveStatuses]))),
      ...systemStatusFollowUps(db, t, {
        event: "requeued",
        to: "inqueue",
        line: "Транскодер не знает задачу (перезапуск без журнала?): передаём заново",
        level: "warn",
      }),
    ]);
  }
  await handOver(env, db, t, attempt);
}

/** Whether the transcoder holds this run of the task; throws when it cannot be asked (retry). */
async function ask(env: Env, t: Task, attempt: number): Promise<boolean> {
  let res: Response;
  try {
    res = await transcoderFetch(env, `/tasks/${t.jobId}`);
  } catch (err) {
    await down(env, t, attempt, err);
  }
  if (res!.status === 404) return false;
  if (!res!.ok) await down(env, t, attempt, new Error(`HTTP ${res!.status}`));
  const body = (await res!.json()) as { run?: number };
  return body.run === t.run;
}

async function down(env: Env, t: Task, attempt: number, err: unknown): Promise<never> {
  const db = getDb(env);
  await batchAll(db, logInserts(db, t.jobId, t.run, [`Попытка ${attempt}: транскодер недоступен (${(err as Error).message})`], "warn"));
  throw new TranscoderDown(`transcoder unreachable for task ${t.jobId}: ${(err as Error).message}`);
}

/** A new run: fresh token and signed URLs, then POST /tasks. The run is bumped first, so callbacks of any earlier hand-over are refused. */
async function handOver(env: Env, db: Db, t: Task, attempt: number) {
  if (!configOf(env).PUBLIC_URL) throw new Error("PUBLIC_URL is not set: the transcoder could not reach the Worker");
  const run = t.run + 1;
  const token = randomSecret();
  const bumped = await db
    .update(tasks)
    .set({ run, tokenHash: await sha256Hex(token), workerInfo: null, heartbeatAt: nowSeconds() })
    .where(and(eq(tasks.jobId, t.jobId), eq(tasks.run, t.run), inArray(tasks.status, [...liveStatuses])))
    .returning({ id: tasks.jobId });
  if (bumped.length === 0) return; // changed meanwhile (a command or another delivery): that one wins
  const job = await jobPayload(env, db, { ...t, run }, token);
  let res: Response;
  try {
    res = await transcoderFetch(env, "/tasks", { method: "POST", json: job });
  } catch (err) {
    return down(env, { ...t, run }, attempt, err);
  }
  const text = await res.text();
  if (!res.ok) return down(env, { ...t, run }, attempt, new Error(`HTTP ${res.status} ${text.slice(0, 200)}`));
  const info = (JSON.parse(text || "{}") as { worker?: string }).worker ?? "transcoder";
  await db.batch([
    db
      .update(tasks)
      .set({ workerInfo: info })
      .where(and(eq(tasks.jobId, t.jobId), eq(tasks.run, run))),
    ...logInserts(db, t.jobId, run, [`Передана транскодеру (${info}), запуск ${run}, приоритет ${t.priority}`]),
  ]);
  await env.JOBS.send({ type: "task-run", jobId: t.jobId, run }, { delaySeconds: configOf(env).TASK_WATCH_SECONDS });
}

/** What the transcoder gets: signed source and destination URLs and the callback with the per-task token, never storage credentials. */
export async function jobPayload(env: Env, db: Db, t: Task, token: string) {
  const origin = configOf(env).PUBLIC_URL!;
  const exp = nowSeconds() + urlTtlSeconds;
  const src = await db.select().from(variants).where(eq(variants.variantId, t.srcEntity)).get();
  if (!src) throw new Error(`source variant ${t.srcEntity} is gone`);
  const mediaUrl = (variantId: string) => taskSourceUrl(env, origin, variantId, exp);
  const outputs: Record<string, string> = {};
  for (const name of outputNames[t.operationClass]) {
    outputs[name] =
      `${origin}/api/task-cb/${t.jobId}/out/${name}?run=${t.run}&${await signUrl(env.JWT_SECRET, "task-out", `${t.jobId}:${t.run}:${name}`, exp)}`;
  }
  const setup = { ...t.setup };
  // Speech recognition through the Worker's AI binding when no endpoint is set (functions/transcripts/workers-ai.ts):
  // the transcoder sends its pieces to this task's callback as to an OpenAI-compatible endpoint.
  if (t.operationClass === "transcribe" && !configOf(env).TRANSCRIBE_URL && env.AI)
    setup.recognizer = { url: `${origin}/api/task-cb/${t.jobId}/audio/transcriptions?run=${t.run}`, model: WHISPER_MODEL };
  if (t.operationClass === "watermark" && typeof setup.image_asset_id === "string") {
    const mark = await sourceVariant(db, setup.image_asset_id);
    if (mark) setup.image_url = await mediaUrl(mark.variantId);
  }
  return {
    id: t.jobId,
    run: t.run,
    operation: t.operationClass,
    setup,
    priority: t.priority,
    // key: what the transcoder caches the download under, shared by all the tasks of these bytes.
    source: {
      url: await mediaUrl(src.variantId),
      key: `${src.assetId}/${src.version}/${src.variantId}/${src.etag}`,
      mime: src.mimeType,
      name: src.fileName,
      size: src.contentSize,
      sha256: src.sha256,
    },
    outputs,
    callback: { url: `${origin}/api/task-cb/${t.jobId}`, token },
  };
}

/** Dead-letter path: the hand-over failed max_retries times. The task ends in error with its log; staged outputs go. */
export async function failTaskForGood(env: Env, jobId: string, reason: string) {
  const db = getDb(env);
  const t = await db.select().from(tasks).where(eq(tasks.jobId, jobId)).get();
  if (!t || !liveStatuses.includes(t.status)) return;
  const now = nowSeconds();
  await db.batch([
    db
      .update(tasks)
      .set({ status: "error", error: reason, stopTime: now, workerInfo: null, mtime: now })
      .where(and(eq(tasks.jobId, jobId), eq(tasks.run, t.run), inArray(tasks.status, [...liveStatuses]))),
    ...systemStatusFollowUps(db, t, { event: "failed", to: "error", line: reason, level: "error" }),
  ]);
  await dropStaged(env, db, t);
}

/** Removes whatever a run may have staged (outputs are registered by key, so unregistered ones are garbage). */
export async function dropStaged(env: Env, db: Db, t: Task) {
  const names = outputNames[t.operationClass];
  if (!names.length) return;
  const src = await db.select({ storageId: variants.storageId }).from(variants).where(eq(variants.variantId, t.srcEntity)).get();
  const driver = await driverFor(env, await getStorage(db, src?.storageId ?? defaultStorageId)).catch(() => null);
  await driver?.delete(names.map((n) => stagingKey(t, t.run, n))).catch(() => {});
}
