import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { entityTags, udwfRuns, udwfWorkflows } from "../../db/schema";
import type { Env } from "../../functions/lib/env";
import worker from "../../worker";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { mkTemplate, setValue } from "./fields.helpers";
import { mkTag } from "./tags.helpers";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/**
 * Workflows with conditions (mime, size, group, class, tag, field) started by an upload, by hand and by the cron:
 * the conditions are read from the run's asset in one batch of raw statements with bound values, which drizzle's
 * D1 batch cannot carry (docs/decisions/054-raw-statements-failing-runs-real-runtime.md).
 */

const receiver = () => inject("webhookUrl");
let owner: Person;
let watched: string;
const allRights = ["read", "update", "create", "download", "acl", "execute"];

beforeAll(async () => {
  owner = await mkPerson();
  watched = await mkGroup(VIRTUAL_ROOT);
  await grant(owner.id, watched, allRights);
});

async function workflow(setup: unknown) {
  const id = (await call("/api/udwf/workflow", { method: "POST", bearer: owner.bearer, json: { name: uniq("Условия") } })).body
    .workflow_id as string;
  const r = await call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer: owner.bearer, json: setup });
  expect(r.status, r.text).toBe(200);
  const on = await call(`/api/udwf/workflow-enable-disable/${id}`, { method: "POST", bearer: owner.bearer, json: { enabled: true } });
  expect(on.status, on.text).toBe(200);
  return id;
}

const runsOf = (wf: string) => db().select().from(udwfRuns).where(eq(udwfRuns.workflowId, wf)).all();

async function finishedRuns(wf: string, count: number) {
  const end = Date.now() + 30_000;
  for (;;) {
    const runs = await runsOf(wf);
    if (runs.length >= count && runs.every((r) => ["done", "failed", "stopped"].includes(r.status))) return runs;
    if (Date.now() > end) throw new Error(`runs of ${wf}: ${JSON.stringify(runs.map((r) => [r.status, r.error]))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function upload(into: string, name: string, mime: string, size = 2048) {
  const bearer = await admin();
  const { asset_id } = await createAsset(bearer, { in_group: into, asset_name: name });
  await uploadFile(bearer, asset_id, randomBytes(size), { name, mime });
  return asset_id as string;
}

const tagsOf = async (asset: string) =>
  (await db().select().from(entityTags).where(eq(entityTags.entityId, asset)).all()).map((t) => t.tagId);

describe("conditions", () => {
  it("an upload that meets mime, size, group and tag conditions runs the steps; one that does not is stopped, naming the condition", async () => {
    const box = `/conditions-${crypto.randomUUID()}`;
    const [tag, absent] = [await mkTag(uniq("Фото")), await mkTag(uniq("Нет"))];
    const wf = await workflow({
      trigger: { type: "asset.uploaded", group_id: watched },
      conditions: [
        { on: "mime", op: "prefix", value: "image/" },
        { on: "size", op: "gte", value: 1000 },
        { on: "group", op: "in", value: watched },
        { on: "tag", op: "not", value: absent },
      ],
      steps: [
        { action: "tag.add", params: { tag_id: tag } },
        { action: "webhook.call", params: { url: `${receiver()}${box}` } },
      ],
    });
    const photo = await upload(watched, "photo.jpg", "image/jpeg");
    const clip = await upload(watched, "clip.mp4", "video/mp4");
    const runs = await finishedRuns(wf, 2);
    const byAsset = new Map(runs.map((r) => [(r.input.entity as { id: string }).id, r]));
    expect(byAsset.get(photo)?.status, byAsset.get(photo)?.error ?? "").toBe("done");
    expect(byAsset.get(clip)).toMatchObject({ status: "stopped", error: "Условие 1 не выполнено" });
    expect(await tagsOf(photo)).toContain(tag);
    expect(await tagsOf(clip)).not.toContain(tag);
    const hits = (await (await fetch(`${receiver()}${box}`)).json()) as unknown[];
    expect(hits).toHaveLength(1);
  }, 60_000);

  it("a manual run checks class and field conditions on each chosen asset", async () => {
    const bearer = await admin();
    const cls = await call("/api/asset/class", { method: "POST", bearer, json: { name: uniq("Класс") } });
    expect(cls.status, cls.text).toBe(200);
    const def = await mkTemplate("text");
    const tag = await mkTag(uniq("Отмечено"));
    const wf = await workflow({
      trigger: { type: "manual" },
      conditions: [
        { on: "class", op: "eq", value: cls.body.id },
        { on: "field", def_id: def, op: "contains", value: "утверждено" },
      ],
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    const [fits, wrongField, noClass] = [
      await upload(watched, "a.jpg", "image/jpeg"),
      await upload(watched, "b.jpg", "image/jpeg"),
      await upload(watched, "c.jpg", "image/jpeg"),
    ];
    for (const id of [fits, wrongField]) {
      const r = await call(`/api/asset/${id}`, { method: "PATCH", bearer, json: { asset_class: cls.body.id } });
      expect(r.status, r.text).toBe(200);
    }
    expect((await setValue({ entity_id: fits, def_id: def, field_data: "Монтаж утверждено" })).status).toBe(200);
    expect((await setValue({ entity_id: wrongField, def_id: def, field_data: "черновик" })).status).toBe(200);
    const r = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: { entities: [fits, wrongField, noClass].map((id) => ({ id, type: "asset" })) },
    });
    expect(r.status, r.text).toBe(200);
    const runs = await finishedRuns(wf, 3);
    const byAsset = new Map(runs.map((x) => [(x.input.entity as { id: string }).id, x]));
    expect(byAsset.get(fits)?.status, byAsset.get(fits)?.error ?? "").toBe("done");
    expect(byAsset.get(wrongField)).toMatchObject({ status: "stopped", error: "Условие 2 не выполнено" });
    expect(byAsset.get(noClass)).toMatchObject({ status: "stopped", error: "Условие 1 не выполнено" });
    expect(await tagsOf(fits)).toContain(tag);
    expect(await tagsOf(wrongField)).not.toContain(tag);
  }, 60_000);

  it("a scheduled run has no asset, so a condition on one stops it instead of failing", async () => {
    const wf = await workflow({
      trigger: { type: "schedule", cron: "0 4 * * *" },
      conditions: [{ on: "mime", op: "prefix", value: "image/" }],
      steps: [{ action: "email.send", params: { to: ["night@example.com"], subject: "Отчёт", body: "Готово" } }],
    });
    await db().update(udwfWorkflows).set({ nextRunAt: 1000 }).where(eq(udwfWorkflows.workflowId, wf));
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env as unknown as Env, ctx);
    await waitOnExecutionContext(ctx);
    const [run] = await finishedRuns(wf, 1);
    expect(run).toMatchObject({ status: "stopped", error: "Условие 1 не выполнено" });
  }, 60_000);
});
