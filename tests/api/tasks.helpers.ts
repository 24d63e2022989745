import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { assets, defaultStorageId, groupMembers, tasks, variants, versions, type TaskStatus } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { JobMessage } from "../../queues/messages";
import type { Env } from "../../functions/lib/env";
import { handleQueue } from "../../queues/index";
import { getDb } from "../../functions/lib/db";
import { createTasks } from "../../functions/tasks/commands";
import { loadTemplate } from "../../functions/tasks/templates";
import { eq } from "drizzle-orm";

/** Fixtures for tasks: assets with a stored variant (straight into D1/R2), tasks in any status, a fake transcoder. */

export const T = {
  metadata: "00000000-0000-4000-8000-000000000001",
  preview: "00000000-0000-4000-8000-000000000002",
  proxyLow: "00000000-0000-4000-8000-000000000003",
  proxyHigh: "00000000-0000-4000-8000-000000000004",
  audio: "00000000-0000-4000-8000-000000000005",
  watermark: "00000000-0000-4000-8000-000000000006",
  text: "00000000-0000-4000-8000-000000000007",
  pdfProxy: "00000000-0000-4000-8000-000000000009",
};

const db = () => getDb(env);

/** An asset placed in `groupId` (null: unplaced) with version 1 and one initial variant whose bytes are in R2. */
export async function mkMediaAsset(groupId: string | null, owner: string, opts: { mime?: string; name?: string } = {}) {
  const now = nowSeconds();
  const assetId = crypto.randomUUID();
  const variantId = crypto.randomUUID();
  const mime = opts.mime ?? "video/mp4";
  const name = opts.name ?? `Клип-${assetId.slice(0, 6)}.mp4`;
  const key = `assets/${assetId}/${variantId}`;
  const put = await env.BUCKET.put(key, new TextEncoder().encode("not really a video"), { httpMetadata: { contentType: mime } });
  await db().batch([
    db().insert(assets).values({ assetId, name, owner, creator: owner, mimetype: mime, ctime: now, mtime: now, atime: now }),
    db().insert(versions).values({ assetId, version: 1, userId: owner, ctime: now }),
    db().insert(variants).values({
      variantId,
      assetId,
      version: 1,
      storageId: defaultStorageId,
      objectKey: key,
      name: "initial",
      mimeType: mime,
      format: "mp4",
      variantType: "initial",
      contentSize: put.size,
      fileName: name,
      etag: put.httpEtag,
      userId: owner,
      ctime: now,
    }),
    ...(groupId ? [db().insert(groupMembers).values({ groupId, elId: assetId, elType: "asset", ctime: now })] : []),
  ]);
  return { assetId, variantId, name };
}

/** A task on the asset's variant, then put straight into `status` (the API's transitions are tested separately). */
export async function mkTask(
  a: { assetId: string; variantId: string },
  status: TaskStatus = "inqueue",
  templateId = T.proxyLow,
  owner: string | null = null,
) {
  const template = (await loadTemplate(db(), templateId))!;
  const [t] = await createTasks(db(), [{ template, assetId: a.assetId, version: 1, variantId: a.variantId, owner }], owner);
  if (status !== "inqueue") await db().update(tasks).set({ status }).where(eq(tasks.jobId, t.jobId));
  return t.jobId;
}

export const taskRow = async (jobId: string) => (await db().select().from(tasks).where(eq(tasks.jobId, jobId)).get())!;

export interface FakeTranscoder {
  env: Env;
  /** Jobs POSTed to /tasks, newest last. */
  jobs: any[];
  /** Every request as "METHOD /path". */
  calls: string[];
  /** Messages the handlers put on the queue (captured, not delivered). */
  sent: { body: JobMessage; delaySeconds?: number }[];
  /** "up": accepts; "down": every request throws like a refused connection; "forgetful": 404 for GET /tasks/{id}. */
  mode: "up" | "down" | "forgetful";
}

/** An env whose transcoder is a function and whose queue only records, for driving the consumer by hand. */
export function fakeTranscoder(): FakeTranscoder {
  const fake: FakeTranscoder = { env: undefined as never, jobs: [], calls: [], sent: [], mode: "up" };
  const held = new Map<string, number>();
  const transcoder = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const req = new Request(input as RequestInfo, init);
      const path = new URL(req.url).pathname;
      fake.calls.push(`${req.method} ${path}`);
      if (fake.mode === "down") throw new TypeError("fetch failed: connection refused");
      if (req.method === "POST" && path === "/tasks") {
        const job = (await req.json()) as { id: string; run: number };
        fake.jobs.push(job);
        held.set(job.id, job.run);
        return Response.json({ accepted: true, worker: "fake-transcoder" });
      }
      const id = path.split("/")[2];
      if (req.method === "GET") {
        if (fake.mode === "forgetful" || !held.has(id)) return Response.json({ error: "unknown" }, { status: 404 });
        return Response.json({ id, run: held.get(id), state: "running" });
      }
      if (req.method === "DELETE") held.delete(id);
      return Response.json({ ok: true });
    },
  };
  const jobs = {
    async send(body: JobMessage, opts?: { delaySeconds?: number }) {
      fake.sent.push({ body, delaySeconds: opts?.delaySeconds });
    },
    async sendBatch(msgs: { body: JobMessage; delaySeconds?: number }[]) {
      fake.sent.push(...msgs);
    },
  };
  fake.env = { ...(env as unknown as Env), TRANSCODER: transcoder as never, PUBLIC_URL: "http://mam.test", JOBS: jobs as never };
  return fake;
}

/** A new task of `templateId` for the variant, handed over to a fake transcoder by the queue's consumer; the job it got. */
export async function handedOverTask(a: { assetId: string; variantId: string }, templateId: string) {
  const fake = fakeTranscoder();
  const id = await mkTask(a, "inqueue", templateId);
  const batch = createMessageBatch<JobMessage>("mam-jobs", [
    { id: `m-${id}`, timestamp: new Date(), attempts: 1, body: { type: "task-run", jobId: id } },
  ]);
  await handleQueue(batch, fake.env);
  await getQueueResult(batch, createExecutionContext());
  const job = fake.jobs[0];
  if (job?.id !== id) throw new Error(`the fake transcoder got ${JSON.stringify(fake.jobs)}, not ${id}`);
  return job;
}
