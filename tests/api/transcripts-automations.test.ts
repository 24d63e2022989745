import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { entityTags, events, tasks, udwfRuns, users } from "../../db/schema";
import type { AuthUser, Env } from "../../functions/lib/env";
import { withCause } from "../../functions/lib/events";
import { finishTask } from "../../functions/tasks/callbacks";
import { startRecognition } from "../../functions/tasks/recognize";
import { dispatchEvents } from "../../functions/udwf/dispatch";
import { admin, call, db, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { mkTag } from "./tags.helpers";
import { randomBytes, uploadFile } from "./uploads.helpers";

/**
 * Automations and transcripts (docs/decisions/059-transcripts.md): the trigger transcript.ready (a transcript
 * saved by import or recognition) and the step transcript.recognize, which acts with the workflow owner's rights.
 */

const srt = "1\n00:00:01,000 --> 00:00:02,000\nПривет.\n";

let owner: Person;
let reader: Person;
let group: string;

beforeAll(async () => {
  owner = await mkPerson();
  reader = await mkPerson();
  group = await mkGroup(VIRTUAL_ROOT);
  await grant(owner.id, group, ["read", "update", "create", "download", "execute"]);
  await grant(reader.id, group, ["read", "execute"]);
});

async function mkVideo() {
  const name = `${uniq("Интервью")}.mp4`;
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: "video/mp4", in_group: group },
    bearer: await admin(),
  });
  expect(r.status, r.text).toBe(200);
  await uploadFile(await admin(), r.body.asset_id, randomBytes(64), { mime: "video/mp4", name });
  return r.body.asset_id as string;
}

async function workflow(bearer: string, setup: unknown) {
  const id = (await call("/api/udwf/workflow", { method: "POST", bearer, json: { name: uniq("Поток") } })).body.workflow_id as string;
  const r = await call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer, json: setup });
  expect(r.status, r.text).toBe(200);
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
const tagged = async (asset: string, tag: string) =>
  (await db().select().from(entityTags).where(eq(entityTags.entityId, asset)).all()).some((t) => t.tagId === tag);

const importSrt = async (asset: string, bearer?: string) =>
  call(`/api/transcripts/${asset}/import`, {
    method: "POST",
    body: srt,
    headers: { "Content-Type": "application/x-subrip" },
    bearer: bearer ?? (await admin()),
  });

describe("the trigger transcript.ready", () => {
  it("is in the catalogue with the step transcript.recognize", async () => {
    const r = await call("/api/udwf/actions", { bearer: owner.bearer });
    expect(r.body.triggers).toContain("transcript.ready");
    const step = r.body.actions.find((a: { action: string }) => a.action === "transcript.recognize");
    expect(step).toMatchObject({ needs_asset: true, params: { properties: { language: { type: "string" }, wait: { type: "boolean" } } } });
  });

  it("starts a run when an SRT is imported onto a file in the watched group; an edit does not", async () => {
    const tag = await mkTag(uniq("Расшифровано"));
    const wf = await workflow(owner.bearer, {
      trigger: { type: "transcript.ready", group_id: group },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    const asset = await mkVideo();
    expect((await importSrt(asset)).status).toBe(200);
    const [run] = await finished(wf);
    expect(run).toMatchObject({ status: "done" });
    expect(run!.input).toMatchObject({ event: { kind: "transcript.import" }, entity: { id: asset, type: "asset" } });
    expect(await tagged(asset, tag)).toBe(true);

    const edit = await call(`/api/transcripts/${asset}`, {
      method: "PATCH",
      json: { segments: [{ start: 0, end: 1, text: "Правка" }] },
      bearer: await admin(),
    });
    expect(edit.status).toBe(200);
    await dispatchEvents(env as unknown as Env);
    expect(await runsOf(wf)).toHaveLength(1);
  });

  it("a recognition an automation started does not start that automation again, but starts others a level deeper", async () => {
    const tag = await mkTag(uniq("Распознано"));
    const asset = await mkVideo();
    const self = await workflow(owner.bearer, {
      trigger: { type: "transcript.ready", group_id: group },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    const other = await workflow(owner.bearer, {
      trigger: { type: "transcript.ready", group_id: group },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    const u = (await db().select().from(users).where(eq(users.userId, owner.id)).get())!;
    const me: AuthUser = {
      userId: u.userId,
      userName: u.userName,
      login: u.login,
      isAdmin: false,
      isRobot: false,
      chrootGroups: [],
      sessionId: "test",
    };
    const recogniser = { ...env, TRANSCRIBE_URL: "http://127.0.0.1:9/v1", JOBS: { send: async () => {} } } as unknown as Env;
    // As the step does it: inside the run, whose cause the task keeps.
    const started = await withCause({ workflow: self, run: "r-test", depth: 1 }, () => startRecognition(db(), recogniser, me, asset, {}));
    const [task] = await db().select().from(tasks).where(eq(tasks.jobId, started.job_id));
    expect(task!.setup).toMatchObject({ udwf: { workflow: self, depth: 1 } });
    await finishTask(db(), env as unknown as Env, task!, {
      transcript: { language: "ru", segments: [{ start: 0, end: 1, text: "Речь" }] },
    });
    const [ev] = await db().select().from(events).where(sql`${events.entityId} = ${asset} AND ${events.kind} = 'transcript.asr'`);
    expect(ev!.data).toMatchObject({ udwf: { workflow: self } });
    await dispatchEvents(env as unknown as Env);
    const [run] = await finished(other);
    expect(run).toMatchObject({ status: "done", depth: 2 });
    expect(await runsOf(self)).toHaveLength(0);
  });
});

describe("the step transcript.recognize", () => {
  it("acts with the owner's rights: an owner without update on the file cannot run it there, and no task is made", async () => {
    const asset = await mkVideo();
    const wf = await workflow(reader.bearer, {
      trigger: { type: "manual" },
      steps: [{ action: "transcript.recognize", params: { language: "ru" } }],
    });
    const r = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: reader.bearer,
      json: { entities: [{ id: asset, type: "asset" }] },
    });
    expect(r.status).toBe(403);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual(["steps.0"]);
    expect(await runsOf(wf)).toEqual([]);
    expect(
      (await db().select().from(tasks).where(eq(tasks.assetId, asset)).all()).filter((t) => t.operationClass === "transcribe"),
    ).toEqual([]);
  });

  it("a setup watching a group where the owner lacks update is refused, naming the step", async () => {
    const id = (await call("/api/udwf/workflow", { method: "POST", bearer: reader.bearer, json: { name: uniq("Поток") } })).body
      .workflow_id;
    const r = await call(`/api/udwf/workflow-setup/${id}`, {
      method: "PATCH",
      bearer: reader.bearer,
      json: { trigger: { type: "transcript.ready", group_id: group }, steps: [{ action: "transcript.recognize", params: {} }] },
    });
    expect(r.status).toBe(403);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual(["steps.0"]);
  });

  it("with update, but no recogniser configured, the run fails saying «Распознавание речи не настроено»", async () => {
    const asset = await mkVideo();
    const wf = await workflow(owner.bearer, { trigger: { type: "manual" }, steps: [{ action: "transcript.recognize", params: {} }] });
    const r = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: { entities: [{ id: asset, type: "asset" }] },
    });
    expect(r.status, r.text).toBe(200);
    const [run] = await finished(wf);
    expect(run).toMatchObject({ status: "failed" });
    expect(run!.error).toContain("Распознавание речи не настроено");
  });
});
