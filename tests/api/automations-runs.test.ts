import { createExecutionContext, createMessageBatch, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { accessRules, entityTags, events, shareLinks, udwfCursor, udwfRuns, udwfWorkflows } from "../../db/schema";
import type { Env } from "../../functions/lib/env";
import { dispatchEvents } from "../../functions/udwf/dispatch";
import { handleQueue } from "../../queues/index";
import type { JobMessage } from "../../queues/messages";
import worker from "../../worker";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { mkTag } from "./tags.helpers";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/**
 * Automation runs in workerd with the real local queue (vitest.config.ts: retries at once, private webhooks
 * allowed): uploads, tags and the cron start them; webhooks land on the local receiver (webhook-receiver.setup.ts).
 */

const receiver = () => inject("webhookUrl");
let owner: Person;
let group: string;
const allRights = ["read", "update", "create", "download", "acl", "execute"];

beforeAll(async () => {
  owner = await mkPerson();
  group = await mkGroup(VIRTUAL_ROOT);
  await grant(owner.id, group, allRights);
});

async function workflow(bearer: string, setup: unknown, enabled = true) {
  const id = (await call("/api/udwf/workflow", { method: "POST", bearer, json: { name: uniq("Поток") } })).body.workflow_id as string;
  const r = await call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer, json: setup });
  expect(r.status, r.text).toBe(200);
  if (enabled)
    expect((await call(`/api/udwf/workflow-enable-disable/${id}`, { method: "POST", bearer, json: { enabled: true } })).status).toBe(200);
  return id;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const runsOf = (wf: string) => db().select().from(udwfRuns).where(eq(udwfRuns.workflowId, wf)).all();
const finished = (wf: string, count = 1) =>
  waitFor(`${count} finished run(s) of ${wf}`, async () => {
    const runs = await runsOf(wf);
    return runs.length >= count && runs.every((r) => ["done", "failed", "stopped"].includes(r.status)) && runs;
  });

async function upload(into: string, name = "clip.mp4") {
  const bearer = await admin();
  const { asset_id } = await createAsset(bearer, { in_group: into, asset_name: name });
  await uploadFile(bearer, asset_id, randomBytes(2048));
  return asset_id;
}

const received = async (box: string) =>
  (await (await fetch(`${receiver()}${box}`)).json()) as { headers: Record<string, string>; body: string }[];

describe("an upload into a watched group", () => {
  let wf: string;
  let asset: string;
  let tag: string;
  const box = `/upload-${crypto.randomUUID()}`;

  it("adds a tag, creates a share link and calls a signed webhook", async () => {
    tag = await mkTag(uniq("Новое"));
    wf = await workflow(owner.bearer, {
      trigger: { type: "asset.uploaded", group_id: group },
      steps: [
        { action: "tag.add", params: { tag_id: tag } },
        { action: "share-link.create", params: { acl: ["view"], days: 7 } },
        { action: "webhook.call", params: { url: `${receiver()}${box}` } },
      ],
    });
    asset = await upload(await mkGroup(group));
    const [run] = await finished(wf);
    expect(run.status, run.error ?? "").toBe("done");
    expect(run.input).toMatchObject({ source: "event", entity: { id: asset, type: "asset" } });
    const tagged = await db().select().from(entityTags).where(eq(entityTags.entityId, asset)).all();
    expect(tagged.map((t) => t.tagId)).toContain(tag);
    const links = await db().select().from(shareLinks).where(eq(shareLinks.assetId, asset)).all();
    expect(links).toHaveLength(1);
    expect(links[0].creator).toBe(owner.id);
    const hits = await received(box);
    expect(hits).toHaveLength(1);
    const secret = (await call(`/api/udwf/workflow/${wf}`, { bearer: owner.bearer })).body.steps[2].params.secret;
    const payload = new Webhook(secret).verify(hits[0].body, hits[0].headers) as {
      run_id: string;
      outputs: Record<string, { url?: string }>;
    };
    expect(payload.run_id).toBe(run.runId);
    expect(payload.outputs[1].url).toContain(`/sl/${links[0].linkId}`);
    expect(hits[0].headers["webhook-id"]).toBe(`${run.runId}.2`);
    expect(() => new Webhook(secret).verify(hits[0].body.replace("run_id", "run_iD"), hits[0].headers)).toThrow();

    const detail = await call(`/api/udwf/run/${run.runId}`, { bearer: owner.bearer });
    expect(detail.body.steps.map((s: { status: string }) => s.status)).toEqual(["done", "done", "done"]);
    expect(detail.body.steps[2].log[0]).toContain("ответ 200");
    const list = await call(`/api/udwf/runs?workflow=${wf}`, { bearer: owner.bearer });
    expect(list.body.total).toBe(1);
    const kinds = (await db().select({ kind: events.kind }).from(events).where(eq(events.entityId, wf)).all()).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["workflow.step", "workflow.run-done"]));
  }, 60_000);

  it("duplicate delivery of the run's message makes no duplicate effect", async () => {
    const [run] = await runsOf(wf);
    const countEffects = async () => ({
      links: (await db().select().from(shareLinks).where(eq(shareLinks.assetId, asset)).all()).length,
      tagEvents: (
        await db()
          .select()
          .from(events)
          .where(and(eq(events.entityId, asset), eq(events.kind, "tag.attach")))
          .all()
      ).length,
      hooks: (await received(box)).length,
    });
    const before = await countEffects();
    // The message again, as the queue may deliver it, and again with the run caught mid-way (as after a restart).
    const deliver = async () => {
      const batch = createMessageBatch<JobMessage>("mam-jobs", [
        { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { type: "udwf-run", runId: run.runId } },
      ]);
      await handleQueue(batch, env as unknown as Env);
    };
    await deliver();
    await db().update(udwfRuns).set({ status: "running" }).where(eq(udwfRuns.runId, run.runId));
    await Promise.all([deliver(), deliver()]);
    expect(await countEffects()).toEqual(before);
    expect((await runsOf(wf))[0].status).toBe("done");
  });
});

describe("failures and limits", () => {
  it("a failing webhook is retried with backoff and ends, failed, with every answer in the run log", async () => {
    const box = `/failing-${crypto.randomUUID()}`;
    const wf = await workflow(owner.bearer, {
      trigger: { type: "manual" },
      steps: [{ action: "webhook.call", params: { url: `${receiver()}${box}?status=503` } }],
    });
    const r = await call(`/api/udwf/execute/${wf}`, { method: "POST", bearer: owner.bearer, json: {} });
    expect(r.status, r.text).toBe(200);
    const [run] = await finished(wf);
    expect(run.status).toBe("failed");
    expect(run.error).toContain("все повторы исчерпаны");
    const detail = (await call(`/api/udwf/run/${r.body.run_id}`, { bearer: owner.bearer })).body;
    // The consumer's max_retries is 5: six tries, each answer logged.
    expect(detail.steps[0].attempts).toBe(6);
    expect(detail.steps[0].log).toHaveLength(6);
    expect(detail.steps[0].log[5]).toMatch(/^попытка 6: ответ 503/);
    expect(await received(box)).toHaveLength(6);
  }, 60_000);

  it("a run started by an event that fails where it started goes on in the queue: retried, then failed with every try", async () => {
    const watched = await mkGroup(VIRTUAL_ROOT);
    await grant(owner.id, watched, allRights);
    const box = `/failing-event-${crypto.randomUUID()}`;
    const wf = await workflow(owner.bearer, {
      trigger: { type: "asset.uploaded", group_id: watched },
      steps: [{ action: "webhook.call", params: { url: `${receiver()}${box}?status=503` } }],
    });
    await upload(watched);
    const [run] = await finished(wf);
    expect(run.status).toBe("failed");
    expect(run.error).toContain("все повторы исчерпаны");
    const detail = (await call(`/api/udwf/run/${run.runId}`, { bearer: owner.bearer })).body;
    // One try in the invocation that dispatched it, then the queue's six (max_retries 5).
    expect(detail.steps[0].attempts).toBe(7);
    expect(detail.steps[0].log).toHaveLength(7);
    expect(await received(box)).toHaveLength(7);
  }, 60_000);

  it("a disabled workflow does not run; an owner without read on the group gets nothing there", async () => {
    const tag = await mkTag(uniq("Тег"));
    const steps = [{ action: "tag.add", params: { tag_id: tag } }];
    const disabled = await workflow(owner.bearer, { trigger: { type: "asset.uploaded", group_id: group }, steps }, false);
    const outsider = await mkPerson();
    const elsewhere = await mkGroup(VIRTUAL_ROOT);
    await grant(outsider.id, elsewhere, ["read"]);
    const blind = await workflow(outsider.bearer, { trigger: { type: "asset.uploaded" }, steps });
    const witness = await workflow(owner.bearer, { trigger: { type: "asset.uploaded", group_id: group }, steps });
    const asset = await upload(group);
    await finished(witness);
    expect((await runsOf(witness))[0].input).toMatchObject({ entity: { id: asset } });
    expect(await runsOf(disabled)).toHaveLength(0);
    expect(await runsOf(blind)).toHaveLength(0);
    // An owner who loses read on the group: their workflow does nothing there from then on.
    const lost = await mkPerson();
    const rule = await grant(lost.id, group, allRights);
    const lostWf = await workflow(lost.bearer, { trigger: { type: "asset.uploaded", group_id: group }, steps });
    await upload(group);
    await finished(lostWf);
    await db().delete(accessRules).where(eq(accessRules.ruleId, rule));
    const before = (await runsOf(witness)).length;
    await upload(group);
    await finished(witness, before + 1);
    expect(await runsOf(lostWf)).toHaveLength(1);
  }, 60_000);

  it("a workflow's own changes do not start it again, and a chain of workflows stops at depth 5", async () => {
    const [t1, t2] = [await mkTag(uniq("Пинг")), await mkTag(uniq("Понг"))];
    const asset = await upload(group);
    const self = await workflow(owner.bearer, {
      trigger: { type: "tag.added", group_id: group },
      steps: [{ action: "tag.add", params: { tag_id: await mkTag(uniq("Свой")) } }],
    });
    const ping = await workflow(owner.bearer, {
      trigger: { type: "tag.added", tag_id: t1 },
      steps: [
        { action: "tag.remove", params: { tag_id: t2 } },
        { action: "tag.add", params: { tag_id: t2 } },
      ],
    });
    const pong = await workflow(owner.bearer, {
      trigger: { type: "tag.added", tag_id: t2 },
      steps: [
        { action: "tag.remove", params: { tag_id: t1 } },
        { action: "tag.add", params: { tag_id: t1 } },
      ],
    });
    const r = await call("/api/tags/attach", {
      method: "POST",
      bearer: await admin(),
      json: { tag_ids: [t1], entities: [{ id: asset, type: "asset" }] },
    });
    expect(r.status, r.text).toBe(200);
    await waitFor("the chain to end", async () => {
      const runs = await db()
        .select()
        .from(udwfRuns)
        .where(inArray(udwfRuns.workflowId, [ping, pong]))
        .all();
      return runs.some((x) => x.depth === 5) && runs.every((x) => x.status === "done") && runs;
    });
    // Quiet for a moment: nothing past depth 5 comes.
    await new Promise((res) => setTimeout(res, 1500));
    const chain = await db()
      .select()
      .from(udwfRuns)
      .where(inArray(udwfRuns.workflowId, [ping, pong]))
      .all();
    expect(chain.map((x) => x.depth).sort()).toEqual([1, 2, 3, 4, 5]);
    const selfRuns = await finished(self);
    // Started by the user's tag and by ping's and pong's, never by its own.
    expect(selfRuns.every((x) => x.status === "done")).toBe(true);
    const causes = await db()
      .select({ n: sql<number>`COUNT(*)` })
      .from(events)
      .where(and(eq(events.entityId, asset), eq(events.kind, "tag.attach"), sql`json_extract(${events.data}, '$.udwf.workflow') = ${self}`))
      .get();
    expect(causes?.n).toBe(1);
    expect(
      selfRuns.filter((x) => (x.input as { event: { data: { udwf?: { workflow: string } } } }).event.data.udwf?.workflow === self),
    ).toHaveLength(0);
  }, 60_000);

  it("a cron workflow runs on the Worker's scheduled handler, once per due time", async () => {
    const wf = await workflow(owner.bearer, {
      trigger: { type: "schedule", cron: "0 3 * * *" },
      steps: [{ action: "email.send", params: { to: ["night@example.com"], subject: "Ночной отчёт", body: "Готово" } }],
    });
    const row = await db().select().from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, wf)).get();
    expect(row?.nextRunAt).toBeGreaterThan(Date.now() / 1000);
    await db().update(udwfWorkflows).set({ nextRunAt: 1000 }).where(eq(udwfWorkflows.workflowId, wf));
    for (let i = 0; i < 2; i++) {
      const ctx = createExecutionContext();
      await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env as unknown as Env, ctx);
      await waitOnExecutionContext(ctx);
    }
    const [run] = await finished(wf);
    expect(run.status).toBe("done");
    expect(run.triggerKey).toBe("cron:1000");
    expect(await runsOf(wf)).toHaveLength(1);
    const next = await db().select().from(udwfWorkflows).where(eq(udwfWorkflows.workflowId, wf)).get();
    expect(next?.nextRunAt).toBeGreaterThan(Date.now() / 1000);
  }, 60_000);

  it("an incoming webhook starts a run once per delivery id", async () => {
    const wf = await workflow(owner.bearer, {
      trigger: { type: "webhook" },
      steps: [{ action: "email.send", params: { to: ["in@example.com"], subject: "Вход", body: "b" } }],
    });
    const url = new URL((await call(`/api/udwf/workflow/${wf}`, { bearer: owner.bearer })).body.hook_url);
    const send = () => call(url.pathname, { method: "POST", json: { hello: 1 }, headers: { "webhook-id": "delivery-1" } });
    const [a, b] = [await send(), await send()];
    expect(a.status, a.text).toBe(200);
    expect(b.body.run_id).toBe(a.body.run_id);
    expect((await call(`${url.pathname.slice(0, -4)}xxxx`, { method: "POST", json: {} })).status).toBe(404);
    const [run] = await finished(wf);
    expect(run.input).toMatchObject({ source: "webhook", payload: { hello: 1 } });
  }, 60_000);
});

describe("a share link opened", () => {
  it("starts the workflow on every open that reaches the Worker, on the link's asset", async () => {
    const tag = await mkTag(uniq("Открыта"));
    const asset = await upload(group);
    const made = await call(`/api/sl/create/${asset}`, { method: "POST", json: { acl: ["view"] }, bearer: owner.bearer });
    expect(made.status, made.text).toBe(200);
    const linkId = (typeof made.body === "string" ? made.body : made.body.link_id) as string;
    const wf = await workflow(owner.bearer, {
      trigger: { type: "share-link.opened", group_id: group },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    for (let i = 0; i < 2; i++) {
      const opened = await call(`/api/sl/info/${linkId}`);
      expect(opened.status, opened.text).toBe(200);
    }
    const runs = await finished(wf, 2);
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.status === "done" && (r.input.entity as { id: string }).id === asset)).toBe(true);
    const tagged = await db()
      .select()
      .from(entityTags)
      .where(and(eq(entityTags.entityId, asset), eq(entityTags.tagId, tag)))
      .all();
    expect(tagged).toHaveLength(1);
  });

  it("writes no open event while no enabled workflow listens", async () => {
    const asset = await upload(group);
    const made = await call(`/api/sl/create/${asset}`, { method: "POST", json: { acl: ["view"] }, bearer: owner.bearer });
    const linkId = (typeof made.body === "string" ? made.body : made.body.link_id) as string;
    // Every listening workflow off (other tests' too): a view then stays a count.
    await db()
      .update(udwfWorkflows)
      .set({ enabled: false })
      .where(sql`json_extract(${udwfWorkflows.trigger}, '$.type') = 'share-link.opened'`);
    expect((await call(`/api/sl/info/${linkId}`)).status).toBe(200);
    await waitFor("the view to be counted", async () => {
      const link = await db().select().from(shareLinks).where(eq(shareLinks.linkId, linkId)).get();
      return (link?.viewCount ?? 0) > 0;
    });
    const opens = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, linkId), eq(events.kind, "share-link.open")))
      .all();
    expect(opens).toHaveLength(0);
  });
});

describe("the dispatcher", () => {
  it("one at a time: a held lease leaves the events to its holder; a lease that ran out is taken over and let go", async () => {
    const watched = await mkGroup(VIRTUAL_ROOT);
    await grant(owner.id, watched, allRights);
    const wf = await workflow(owner.bearer, {
      trigger: { type: "asset.uploaded", group_id: watched },
      steps: [{ action: "email.send", params: { to: ["lease@example.com"], subject: "Аренда", body: "{{asset.id}}" } }],
    });
    // Another dispatcher holds the events: the upload's own dispatch and this one leave them.
    await db()
      .update(udwfCursor)
      .set({ leaseUntil: Date.now() + 60_000 });
    try {
      await upload(watched);
      expect(await dispatchEvents(env as unknown as Env)).toBe(0);
      expect(await runsOf(wf)).toHaveLength(0);
    } finally {
      // Its Worker died: the lease runs out.
      await db()
        .update(udwfCursor)
        .set({ leaseUntil: Date.now() - 1 });
    }
    expect(await dispatchEvents(env as unknown as Env)).toBeGreaterThanOrEqual(1);
    const [run] = await finished(wf);
    expect(run.status).toBe("done");
    expect((await db().select().from(udwfCursor).get())?.leaseUntil).toBe(0);
  }, 60_000);
});
