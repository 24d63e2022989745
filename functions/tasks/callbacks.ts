import { and, eq, inArray, sql } from "drizzle-orm";
import type { Segment } from "../../shared/transcripts/schemas";
import { saveTranscript } from "../transcripts/service";
import { tasks, variants, type Task, type Variant } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { batchAll } from "../lib/batch";
import type { Db } from "../lib/db";
import { inlined, rawBatch, rawStatement } from "../lib/sql";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { type EventCause, withCause } from "../lib/events";
import { sameSecret, sha256Hex } from "../lib/ids";
import { driverFor, getStorage } from "../lib/storage";
import { fingerprintStatements } from "./fingerprints";
import { dropStaged } from "./dispatch";
import { logInserts, outputNames, stagingKey } from "./outputs";
import { systemStatusFollowUps } from "./record";
import { liveStatuses } from "../../shared/tasks/transitions";

/**
 * What the transcoder calls back (routes in callback-routes.ts), authenticated by the per-task token
 * of the current run. A call for an older run or a task no longer live gets 409: the transcoder then
 * drops the job, so a paused, cancelled or re-dispatched attempt never registers anything.
 */
const live = (t: Pick<Task, "jobId" | "run">) =>
  and(eq(tasks.jobId, t.jobId), eq(tasks.run, t.run), inArray(tasks.status, [...liveStatuses]));

export async function taskForCallback(db: Db, jobId: string, token: string | undefined, run: number): Promise<Task> {
  const t = await db.select().from(tasks).where(eq(tasks.jobId, jobId)).get();
  // An unknown task and a wrong token look the same (401, the envelope only): nothing about the task,
  // not even its run or status, is told to a caller without the current run's token.
  if (!t || !token || !t.tokenHash || !sameSecret(await sha256Hex(token), t.tokenHash)) {
    throw new ApiError("unauthorized", "Неверный токен задачи");
  }
  if (t.run !== run || !liveStatuses.includes(t.status)) throw stale(t);
  return t;
}

const stale = (t: Task) =>
  new ApiError("conflict", `Задача в статусе «${t.status}», запуск ${t.run}: этот запуск больше не нужен`, [
    { field: "status", message: t.status },
  ]);

/** Progress and log lines; the first call moves inqueue → running (one event). */
export async function reportProgress(
  db: Db,
  t: Task,
  p: { progress?: number; progress_info?: string; worker_info?: string; lines?: string[]; level?: "info" | "warn" | "error" },
) {
  const now = nowSeconds();
  const set: Partial<Task> = { heartbeatAt: now, mtime: now };
  if (p.progress !== undefined) set.progress = Math.round(p.progress);
  if (p.progress_info !== undefined) set.progressInfo = p.progress_info.slice(0, 500);
  if (p.worker_info) set.workerInfo = p.worker_info.slice(0, 200);
  await batchAll(db, [
    db
      .update(tasks)
      .set({ status: "running", startTime: now })
      .where(and(live(t), eq(tasks.status, "inqueue"))),
    ...systemStatusFollowUps(db, t, {
      event: "started",
      from: "inqueue",
      to: "running",
      line: `Запущена на ${p.worker_info ?? t.workerInfo ?? "транскодере"}`,
    }),
    db.update(tasks).set(set).where(live(t)),
    ...logInserts(db, t.jobId, t.run, p.lines ?? [], p.level),
  ]);
  return { ok: true as const };
}

/** One output file, streamed into the source's storage under the run's staging key. */
export async function putOutput(db: Db, env: Env, t: Task, name: string, size: number, mime: string, body: ReadableStream | null) {
  if (!outputNames[t.operationClass].includes(name))
    throw new ApiError("bad_request", `Неизвестный выход «${name}»`, [{ field: "name", message: "не из этой операции" }]);
  if (!Number.isFinite(size) || size <= 0 || !body)
    throw new ApiError("bad_request", "Нужно тело с Content-Length", [{ field: "Content-Length", message: "обязательное поле" }]);
  const src = await sourceOf(db, t);
  const driver = await driverFor(env, await getStorage(db, src.storageId));
  const info = await driver.put(stagingKey(t, t.run, name), body, size, mime || "application/octet-stream");
  await db.update(tasks).set({ heartbeatAt: nowSeconds() }).where(live(t));
  return { name, size: info.size, etag: info.etag };
}

async function sourceOf(db: Db, t: Task): Promise<Variant> {
  const src = await db.select().from(variants).where(eq(variants.variantId, t.srcEntity)).get();
  if (!src) throw new ApiError("conflict", "Исходный вариант удалён", [{ field: "status", message: t.status }]);
  return src;
}

export interface OutputReport {
  name: string;
  mime: string;
  file_name?: string;
  format?: string;
  tech?: Record<string, unknown>;
}

/**
 * The result: variants, previews and tech fields registered and the task done, in one batch. Every
 * statement is guarded by "this run is still live" and the status flip comes last, so a duplicate or
 * stale result changes nothing and a failure half-way leaves nothing registered.
 */
export async function finishTask(
  db: Db,
  env: Env,
  t: Task,
  r: {
    tech?: Record<string, unknown>;
    outputs?: OutputReport[];
    lines?: string[];
    text?: string;
    transcript?: { language: string; segments: Segment[] };
  },
) {
  const src = await sourceOf(db, t);
  const storage = await getStorage(db, src.storageId);
  const driver = await driverFor(env, storage);
  const now = nowSeconds();
  const guard = inlined`EXISTS (SELECT 1 FROM tasks WHERE job_id = ${t.jobId} AND run = ${t.run} AND status IN ('inqueue', 'running'))`;
  const stmts = [];
  const garbage: string[] = [];
  const tech: Record<string, unknown> = { ...(r.tech ?? {}) };
  if (r.tech?.sha256 && src.sha256 && r.tech.sha256 !== src.sha256) tech.sha256_mismatch = true;
  for (const out of r.outputs ?? []) {
    const key = stagingKey(t, t.run, out.name);
    const head = await driver.head(key);
    if (!head) throw new ApiError("bad_request", `Выход «${out.name}» не загружен`, [{ field: "outputs", message: out.name }]);
    if (out.name === "preview") {
      stmts.push(
        db.run(
          inlined`UPDATE variants SET preview_key = ${key}, preview_storage_id = ${storage.storageId} WHERE variant_id = ${src.variantId} AND ${guard}`,
        ),
      );
      if (src.previewKey && src.previewKey !== key) garbage.push(src.previewKey);
      continue;
    }
    const vt = String(t.setup.variant_type ?? "untyped");
    const id = t.dstEntity!;
    const base = src.fileName.replace(/\.[^.]*$/, "");
    const fileName = out.file_name ?? `${base}.${out.format ?? "bin"}`;
    stmts.push(
      db.run(inlined`INSERT INTO variants (variant_id, asset_id, version, storage_id, object_key, name, mime_type, format, variant_type, content_size, file_name, etag, tech_props, user_id, ctime)
      SELECT ${id}, ${src.assetId}, ${src.version}, ${storage.storageId}, ${key}, ${t.template}, ${out.mime}, ${out.format ?? ""}, ${vt}, ${head.size}, ${fileName}, ${head.etag}, ${JSON.stringify(out.tech ?? {})}, ${t.owner}, ${now}
      WHERE ${guard} ON CONFLICT DO NOTHING`),
    );
    if (vt !== "untyped") {
      const replaced = await db
        .select({ key: variants.objectKey })
        .from(variants)
        .where(
          and(
            eq(variants.assetId, src.assetId),
            eq(variants.version, src.version),
            eq(variants.variantType, vt as Variant["variantType"]),
            sql`${variants.variantId} <> ${id}`,
          ),
        );
      garbage.push(...replaced.map((x) => x.key));
      stmts.push(
        db.run(
          inlined`DELETE FROM variants WHERE asset_id = ${src.assetId} AND version = ${src.version} AND variant_type = ${vt} AND variant_id <> ${id} AND ${guard}`,
        ),
      );
    }
  }
  if (Object.keys(tech).length)
    stmts.push(
      db.run(
        inlined`UPDATE variants SET tech_props = json_patch(tech_props, ${JSON.stringify(tech)}) WHERE variant_id = ${src.variantId} AND ${guard}`,
      ),
    );
  if (t.operationClass === "metadata") stmts.push(...fingerprintStatements(db, src, r.tech ?? {}, guard));
  stmts.push(...logInserts(db, t.jobId, t.run, r.lines ?? []));
  const result = { tech: r.tech ?? {}, outputs: (r.outputs ?? []).map((o) => o.name) };
  stmts.push(db.update(tasks).set({ status: "done", progress: 100, stopTime: now, heartbeatAt: now, result, mtime: now }).where(live(t)));
  stmts.push(...systemStatusFollowUps(db, t, { event: "finished", to: "done", line: "Готово" }));
  if (r.text !== undefined) await storeText(db, t, src, r.text);
  // Like the text above: written before the result's batch, and only while this run is live (a retry writes it again).
  if (r.transcript) {
    const transcript = r.transcript;
    const save = () =>
      saveTranscript(db, t.owner, {
        assetId: src.assetId,
        version: src.version,
        language: transcript.language,
        source: "asr",
        segments: transcript.segments,
      });
    // A recognition an automation started saves as that run (recognize.ts): its
    // transcript.ready does not start the same workflow again, and chains stop at their depth.
    const cause = t.setup.udwf as EventCause | undefined;
    await (cause ? withCause(cause, save) : save());
  }
  await batchAll(db, stmts);
  const after = await db.select({ status: tasks.status, run: tasks.run }).from(tasks).where(eq(tasks.jobId, t.jobId)).get();
  if (after?.status === "done" && after.run === t.run && garbage.length) await driver.delete(garbage).catch(() => {});
  return { ok: true as const, status: after?.status ?? "done" };
}

/**
 * A document's text for search (class text; the index reads search_texts, functions/search/documents.ts). Its own
 * statement, bound rather than inlined: a document's text can be far longer than one inlined D1 statement may
 * be. Written only while the run is live, before the result's batch: should that batch fail, the transcoder's
 * retry writes the same text again.
 */
async function storeText(db: Db, t: Task, src: { assetId: string; variantId: string }, text: string) {
  await rawBatch(db, [
    rawStatement(
      `INSERT INTO search_texts (asset_id, variant_id, text, ctime)
        SELECT ?, ?, ?, unixepoch() WHERE EXISTS (SELECT 1 FROM tasks WHERE job_id = ? AND run = ? AND status IN ('inqueue', 'running'))
        ON CONFLICT (asset_id) DO UPDATE SET variant_id = excluded.variant_id, text = excluded.text, ctime = excluded.ctime`,
      src.assetId,
      src.variantId,
      text,
      t.jobId,
      t.run,
    ),
  ]);
}

/** The transcoder gave up (bad input, ffmpeg failed): error, with its log; staged outputs removed. */
export async function failTask(db: Db, env: Env, t: Task, error: string, lines: string[] = []) {
  const now = nowSeconds();
  await batchAll(db, [
    ...logInserts(db, t.jobId, t.run, lines, "error"),
    db
      .update(tasks)
      .set({ status: "error", error: error.slice(0, 2000), stopTime: now, mtime: now })
      .where(live(t)),
    ...systemStatusFollowUps(db, t, { event: "failed", to: "error", line: `Ошибка: ${error}`, level: "error" }),
  ]);
  await dropStaged(env, db, t);
  return { ok: true as const };
}
