import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { accessRules, shareLinks, udwfRuns } from "../../db/schema";
import { admin, call, db, disable, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { fieldsOf, mkTag } from "./tags.helpers";
import { createAsset, randomBytes, uploadFile } from "./uploads.helpers";

/**
 * Shared automations as an attacker would use them (docs/decisions/025-threat-model.md, "Shared automations"): a
 * workflow acts only where its owner and whoever last saved its setup or enabled it both hold the rights (a manual
 * run: the caller too), a setup naming what its editor cannot reach is refused with 403 naming the step, and
 * viewers see statuses, timings and error classes, never inputs, outputs or logs.
 */

const allRights = ["read", "update", "create", "download", "acl", "execute"];
let owner: Person;
let editor: Person;
let viewer: Person;
/** Both owner and editor hold every right here. */
let shared: string;
/** Only the owner reads it. */
let secret: string;
/** The editor only reads it. */
let readOnly: string;

beforeAll(async () => {
  [owner, editor, viewer] = [await mkPerson(), await mkPerson(), await mkPerson()];
  [shared, secret, readOnly] = [await mkGroup(VIRTUAL_ROOT), await mkGroup(VIRTUAL_ROOT), await mkGroup(VIRTUAL_ROOT)];
  for (const g of [shared, secret, readOnly]) await grant(owner.id, g, allRights);
  await grant(editor.id, shared, allRights);
  await grant(editor.id, readOnly, ["read"]);
  await grant(viewer.id, shared, ["read"]);
});

const setup = (bearer: string, id: string, json: unknown) => call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer, json });
const enable = (bearer: string, id: string, enabled = true) =>
  call(`/api/udwf/workflow-enable-disable/${id}`, { method: "POST", bearer, json: { enabled } });

/** The owner's workflow with this setup, shared with the editor (edit) and the viewer (view). */
async function sharedWorkflow(json: unknown) {
  const id = (await call("/api/udwf/workflow", { method: "POST", bearer: owner.bearer, json: { name: uniq("Общий поток") } })).body
    .workflow_id as string;
  const s = await setup(owner.bearer, id, json);
  expect(s.status, s.text).toBe(200);
  const shares = [
    { subject_type: "user", subject: editor.id, role: "edit" },
    { subject_type: "user", subject: viewer.id, role: "view" },
  ];
  expect((await call(`/api/udwf/workflow-shares/${id}`, { method: "POST", bearer: owner.bearer, json: { shares } })).status).toBe(200);
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
const runById = (id: string) =>
  waitFor(`run ${id} to end`, async () => {
    const r = await db().select().from(udwfRuns).where(eq(udwfRuns.runId, id)).get();
    return r && ["done", "failed", "stopped"].includes(r.status) && r;
  });

async function upload(into: string) {
  const bearer = await admin();
  const { asset_id } = await createAsset(bearer, { in_group: into, asset_name: "clip.mp4" });
  await uploadFile(bearer, asset_id, randomBytes(2048));
  return asset_id as string;
}

const linksOf = (asset: string) => db().select().from(shareLinks).where(eq(shareLinks.assetId, asset)).all();
const downloadLink = { action: "share-link.create", params: { acl: ["download_original"], days: 1 } };

describe("a workflow acts only within the rights of those who shaped it", () => {
  it("an editor who drops the group filter and adds a download link gets no link to a file only the owner reads", async () => {
    const tag = await mkTag(uniq("Общий"));
    const wf = await sharedWorkflow({
      trigger: { type: "asset.uploaded", group_id: shared },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    // The attack of issue 34: the editor widens the trigger to every upload the owner sees and adds a download link.
    const widened = await setup(editor.bearer, wf, { trigger: { type: "asset.uploaded" }, steps: [downloadLink] });
    expect(widened.status, widened.text).toBe(200);
    expect((await enable(editor.bearer, wf)).status).toBe(200);

    // A file only the owner reads starts no run at all: the editor learns nothing of it (decision 054).
    const hidden = await upload(secret);
    // A file the editor merely reads starts a run that fails: the editor may not make a download link there.
    const readable = await upload(readOnly);
    const [run] = await finished(wf);
    expect(run.status).toBe("failed");
    expect((run.input.entity as { id: string }).id).toBe(readable);
    expect(await linksOf(hidden)).toHaveLength(0);
    expect(await linksOf(readable)).toHaveLength(0);
    // The run says whose rights were missing.
    const seen = await call(`/api/udwf/run/${run.runId}`, { bearer: editor.bearer });
    expect(seen.body).toMatchObject({ status: "failed", error_class: "denied" });
    expect(seen.body.error).toMatch(/Недостаточно прав у «.+», который последним менял или включал автоматизацию: нужно право «.+»/);

    // Where both hold the rights, the same workflow works.
    const open = await upload(shared);
    const runs = await finished(wf, 2);
    expect(runs.find((r) => r.runId !== run.runId)?.status).toBe("done");
    expect(await linksOf(open)).toHaveLength(1);
    expect(runs.some((r) => (r.input.entity as { id: string }).id === hidden)).toBe(false);
    // The workflow names who it acts for besides its owner; off again, so later uploads here start nothing.
    const got = await call(`/api/udwf/workflow/${wf}`, { bearer: viewer.bearer });
    expect(got.body).toMatchObject({ owner: owner.id, actor: editor.id });
    expect((await enable(owner.bearer, wf, false)).status).toBe(200);
  }, 60_000);

  it("a setup naming what its editor cannot reach is refused with 403 naming the step", async () => {
    const wf = await sharedWorkflow({
      trigger: { type: "manual" },
      steps: [{ action: "tag.add", params: { tag_id: await mkTag(uniq("Тег")) } }],
    });
    // A target group the editor cannot see.
    const copy = await setup(editor.bearer, wf, {
      trigger: { type: "asset.uploaded", group_id: shared },
      steps: [{ action: "asset.copy", params: { to: secret } }],
    });
    expect(copy.status, copy.text).toBe(403);
    expect(fieldsOf(copy)).toEqual(["steps.0.params.to"]);
    // A trigger scope the editor reads, but a step needing rights there the editor lacks (acl and download).
    const link = await setup(editor.bearer, wf, {
      trigger: { type: "asset.uploaded", group_id: readOnly },
      steps: [{ action: "email.send", params: { to: ["x@example.com"], subject: "s", body: "b" } }, downloadLink],
    });
    expect(link.status, link.text).toBe(403);
    expect(fieldsOf(link)).toEqual(["steps.1"]);
    // A trigger scope the editor cannot read at all.
    const scope = await setup(editor.bearer, wf, {
      trigger: { type: "asset.uploaded", group_id: secret },
      steps: [{ action: "email.send", params: { to: ["x@example.com"], subject: "s", body: "b" } }],
    });
    expect(scope.status, scope.text).toBe(403);
    expect(fieldsOf(scope)).toEqual(["trigger.group_id"]);
  });

  it("enabling re-checks the setup against whoever enables it, and makes them the one it acts for", async () => {
    const wf = await sharedWorkflow({ trigger: { type: "asset.uploaded", group_id: secret }, steps: [downloadLink] });
    const refused = await enable(editor.bearer, wf);
    expect(refused.status, refused.text).toBe(403);
    expect(fieldsOf(refused)).toEqual(expect.arrayContaining(["trigger.group_id"]));
    expect((await call(`/api/udwf/workflow/${wf}`, { bearer: owner.bearer })).body.enabled).toBe(false);
    expect((await enable(owner.bearer, wf)).status).toBe(200);
    // Disabling needs no rights on what it names.
    expect((await enable(editor.bearer, wf, false)).status).toBe(200);
  });

  it("a manual run acts within the caller's rights too", async () => {
    const wf = await sharedWorkflow({ trigger: { type: "manual" }, steps: [downloadLink] });
    const asset = await upload(readOnly);
    // The editor reads the file but may neither share nor download it: the owner's rights are not lent.
    const r = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: editor.bearer,
      json: { entities: [{ id: asset, type: "asset" }] },
    });
    expect(r.status, r.text).toBe(403);
    expect(fieldsOf(r)).toEqual(["steps.0"]);
    expect(await linksOf(asset)).toHaveLength(0);
    // The owner may.
    const own = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: { entities: [{ id: asset, type: "asset" }] },
    });
    expect(own.status, own.text).toBe(200);
    expect((await runById(own.body.run_id)).status).toBe("done");
    expect(await linksOf(asset)).toHaveLength(1);
  }, 60_000);

  it("a failed run tried again by an editor acts within the editor's rights too", async () => {
    const wf = await sharedWorkflow({ trigger: { type: "manual" }, steps: [downloadLink] });
    const place = await mkGroup(VIRTUAL_ROOT);
    const ownersRule = await grant(owner.id, place, ["read"]);
    await grant(editor.id, place, ["read"]);
    const asset = await upload(place);
    // The owner may not share it yet: the run fails for want of a right.
    const first = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: { entities: [{ id: asset, type: "asset" }] },
    });
    expect(first.status, first.text).toBe(403);
    await db()
      .insert(udwfRuns)
      .values({
        runId: crypto.randomUUID(),
        workflowId: wf,
        triggerKey: `manual:${crypto.randomUUID()}`,
        status: "failed",
        input: { source: "manual", by: owner.id, entity: { id: asset, type: "asset" }, form: {} },
        error: "Шаг 1: Недостаточно прав",
        ctime: 1,
      });
    const [failed] = await runsOf(wf);
    // Now the owner holds the rights; the editor, who only reads the file, asks for the run again.
    await db().update(accessRules).set({ acl: allRights }).where(eq(accessRules.ruleId, ownersRule));
    const again = await call(`/api/udwf/run/${failed.runId}/retry`, { method: "POST", bearer: editor.bearer });
    expect(again.status, again.text).toBe(200);
    await waitFor("the retried run to end", async () => {
      const r = await db().select().from(udwfRuns).where(eq(udwfRuns.runId, failed.runId)).get();
      return r && r.status === "failed" && r.errorClass !== null && r;
    });
    expect(await linksOf(asset)).toHaveLength(0);
    // The owner's own retry goes through.
    expect((await call(`/api/udwf/run/${failed.runId}/retry`, { method: "POST", bearer: owner.bearer })).status).toBe(200);
    expect((await runById(failed.runId)).status).toBe("done");
    expect(await linksOf(asset)).toHaveLength(1);
  }, 60_000);

  it("when the one it acts for is disabled, its runs fail with a clear error until someone with the rights enables it again", async () => {
    const tag = await mkTag(uniq("Отключён"));
    const steps = [{ action: "tag.add", params: { tag_id: tag } }];
    const wf = await sharedWorkflow({ trigger: { type: "asset.uploaded", group_id: shared }, steps });
    const shaper = await mkPerson();
    await grant(shaper.id, shared, allRights);
    await call(`/api/udwf/workflow-shares/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: { shares: [{ subject_type: "user", subject: shaper.id, role: "edit" }] },
    });
    expect((await setup(shaper.bearer, wf, { trigger: { type: "asset.uploaded", group_id: shared }, steps })).status).toBe(200);
    expect((await enable(shaper.bearer, wf)).status).toBe(200);
    await disable(shaper.id);
    await upload(shared);
    const [run] = await finished(wf);
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/отключён или удалён/);
    // The owner enables it again: from now on it acts for the owner.
    expect((await enable(owner.bearer, wf)).status).toBe(200);
    await upload(shared);
    const runs = await finished(wf, 2);
    expect(runs.find((r) => r.runId !== run.runId)?.status).toBe("done");
  }, 60_000);
});

describe("a workflow's viewers see statuses, not secrets", () => {
  let wf: string;
  let runId: string;
  let linkId: string;
  const box = `/viewer-${crypto.randomUUID()}`;

  beforeAll(async () => {
    wf = await sharedWorkflow({
      trigger: { type: "manual" },
      steps: [downloadLink, { action: "webhook.call", params: { url: `${inject("webhookUrl")}${box}` } }],
    });
    const asset = await upload(shared);
    const r = await call(`/api/udwf/execute/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: { entities: [{ id: asset, type: "asset" }] },
    });
    expect(r.status, r.text).toBe(200);
    runId = r.body.run_id;
    expect((await runById(runId)).status).toBe("done");
    linkId = (await linksOf(asset))[0].linkId;
  }, 60_000);

  it("the owner sees inputs, outputs and logs", async () => {
    const got = await call(`/api/udwf/run/${runId}`, { bearer: owner.bearer });
    expect(got.body.input).toMatchObject({ source: "manual" });
    expect(got.body.steps[0].output).toMatchObject({ link_id: linkId });
    expect(got.body.steps[1].log.length).toBeGreaterThan(0);
  });

  it("a viewer gets each run's and step's status, timings and error class, with the rest left out", async () => {
    const got = await call(`/api/udwf/run/${runId}`, { bearer: viewer.bearer });
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("input");
    expect(got.body).not.toHaveProperty("error");
    expect(got.body).toMatchObject({ status: "done", error_class: null });
    expect(got.body.started_at).toEqual(expect.any(Number));
    for (const s of got.body.steps) {
      expect(Object.keys(s).sort()).toEqual(["action", "attempts", "error_class", "finished_at", "started_at", "status", "step"]);
    }
    expect(got.text).not.toContain(linkId);
    const list = await call(`/api/udwf/runs?workflow=${wf}`, { bearer: viewer.bearer });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).not.toHaveProperty("input");
    expect(list.body.items[0]).not.toHaveProperty("error");
    expect(list.text).not.toContain(linkId);
  });

  it("an editor who may not manage the link sees the outputs without its id", async () => {
    const outsider = await mkPerson();
    await grant(outsider.id, shared, ["read"]);
    await call(`/api/udwf/workflow-shares/${wf}`, {
      method: "POST",
      bearer: owner.bearer,
      json: {
        shares: [
          { subject_type: "user", subject: outsider.id, role: "edit" },
          { subject_type: "user", subject: editor.id, role: "edit" },
        ],
      },
    });
    const got = await call(`/api/udwf/run/${runId}`, { bearer: outsider.bearer });
    expect(got.status).toBe(200);
    expect(got.body.steps[0].output).toMatchObject({ link_id: null, url: null });
    expect(got.body.steps[1].log.length).toBeGreaterThan(0);
    expect(got.text).not.toContain(linkId);
    // An editor who manages links on the file (acl there) sees it, as the file's link list would show it.
    const manager = await call(`/api/udwf/run/${runId}`, { bearer: editor.bearer });
    expect(manager.body.steps[0].output).toMatchObject({ link_id: linkId });
  });
});
