import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { call, db, grant, joinTeam, mkGroup, mkPerson, VIRTUAL_ROOT, type Person } from "./fixtures";
import { fieldsOf } from "./tags.helpers";

/**
 * Sharing a workflow (docs/decisions/050-automations-speed-sharing-link-opened.md): the owner shares with users (by
 * login) and teams, for view or edit; editors change and run it, and it still acts as its owner; only the owner
 * shares and deletes; secrets only for those who may edit.
 */

let owner: Person;
let viewer: Person;
let teamEditor: Person;
let stranger: Person;
let team: string;
let ownersGroup: string;
let wf: string;

const hookStep = { action: "webhook.call", params: { url: "http://127.0.0.1:9/hook" } };
const mailStep = { action: "email.send", params: { to: ["shared@example.com"], subject: "Общая", body: "{{run.id}}" } };

beforeAll(async () => {
  [owner, viewer, teamEditor, stranger] = [await mkPerson(), await mkPerson(), await mkPerson(), await mkPerson()];
  team = await mkGroup(VIRTUAL_ROOT);
  ownersGroup = await mkGroup(VIRTUAL_ROOT);
  await joinTeam(team, teamEditor.id);
  await grant(owner.id, team, ["read"]);
  await grant(owner.id, ownersGroup, ["read", "update"]);
  const r = await call("/api/udwf/workflow", { method: "POST", bearer: owner.bearer, json: { name: "Общая автоматизация" } });
  wf = r.body.workflow_id;
  const s = await call(`/api/udwf/workflow-setup/${wf}`, {
    method: "PATCH",
    bearer: owner.bearer,
    json: { trigger: { type: "manual" }, steps: [mailStep, hookStep] },
  });
  expect(s.status, s.text).toBe(200);
});

const share = (bearer: string, shares: unknown) => call(`/api/udwf/workflow-shares/${wf}`, { method: "POST", bearer, json: { shares } });

describe("sharing a workflow", () => {
  it("the owner shares with a user (by login) for view and a team for edit; the list names them", async () => {
    const r = await share(owner.bearer, [
      { subject_type: "user", subject: viewer.login.toUpperCase(), role: "view" },
      { subject_type: "team", subject: team, role: "edit" },
    ]);
    expect(r.status, r.text).toBe(200);
    const list = await call(`/api/udwf/workflow-shares/${wf}`, { bearer: owner.bearer });
    expect(list.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject_type: "user", subject_id: viewer.id, login: viewer.login, role: "view" }),
        expect.objectContaining({ subject_type: "team", subject_id: team, role: "edit" }),
      ]),
    );
  });

  it("a viewer lists and reads it without secrets, sees its runs, and may not change, run, share or delete it", async () => {
    const listed = await call("/api/udwf/workflows", { bearer: viewer.bearer });
    const item = listed.body.items.find((w: { workflow_id: string }) => w.workflow_id === wf);
    expect(item).toMatchObject({ access: "view", owner: owner.id });
    expect(item.steps[1].params.secret).toBeUndefined();
    const got = await call(`/api/udwf/workflow/${wf}`, { bearer: viewer.bearer });
    expect(got.status).toBe(200);
    expect(got.body.steps[1].params.secret).toBeUndefined();
    for (const [path, method, json] of [
      [`/api/udwf/workflow/${wf}`, "PATCH", { name: "Чужая" }],
      [`/api/udwf/workflow-setup/${wf}`, "PATCH", { trigger: { type: "manual" }, steps: [mailStep] }],
      [`/api/udwf/workflow-enable-disable/${wf}`, "POST", { enabled: true }],
      [`/api/udwf/execute/${wf}`, "POST", {}],
      [`/api/udwf/workflow-shares/${wf}`, "POST", { shares: [] }],
      [`/api/udwf/workflow/${wf}`, "DELETE", undefined],
    ] as const) {
      const r = await call(path, { method, bearer: viewer.bearer, json });
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(403);
    }
  });

  it("a team member edits and runs it; the run's effects are the owner's; the secret is shown to them", async () => {
    const got = await call(`/api/udwf/workflow/${wf}`, { bearer: teamEditor.bearer });
    expect(got.body.access).toBe("edit");
    expect(got.body.steps[1].params.secret).toMatch(/^whsec_/);
    const set = await call(`/api/udwf/workflow-setup/${wf}`, {
      method: "PATCH",
      bearer: teamEditor.bearer,
      json: { trigger: { type: "manual" }, steps: [mailStep] },
    });
    expect(set.status, set.text).toBe(200);
    const run = await call(`/api/udwf/execute/${wf}`, { method: "POST", bearer: teamEditor.bearer, json: {} });
    expect(run.status, run.text).toBe(200);
    let status = "";
    for (let i = 0; i < 100 && !["done", "failed"].includes(status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await call(`/api/udwf/run/${run.body.run_id}`, { bearer: teamEditor.bearer })).body.status;
    }
    expect(status).toBe("done");
    const stepEvents = await db()
      .select({ user: events.userId })
      .from(events)
      .where(and(eq(events.entityId, wf), eq(events.kind, "workflow.step")))
      .all();
    expect(stepEvents.length).toBeGreaterThan(0);
    expect(stepEvents.every((e) => e.user === owner.id)).toBe(true);
    // The viewer sees the run too.
    const runs = await call(`/api/udwf/runs?workflow=${wf}`, { bearer: viewer.bearer });
    expect(runs.body.items.map((x: { run_id: string }) => x.run_id)).toContain(run.body.run_id);
  });

  it("an editor may not point the owner's rights at a group the editor cannot read (403 naming the field), nor share or delete", async () => {
    const r = await call(`/api/udwf/workflow-setup/${wf}`, {
      method: "PATCH",
      bearer: teamEditor.bearer,
      json: { trigger: { type: "asset.uploaded", group_id: ownersGroup }, steps: [mailStep] },
    });
    expect(r.status).toBe(403);
    expect(fieldsOf(r)).toEqual(["trigger.group_id"]);
    expect((await share(teamEditor.bearer, [])).status).toBe(403);
    expect((await call(`/api/udwf/workflow/${wf}`, { method: "DELETE", bearer: teamEditor.bearer })).status).toBe(403);
    // The owner may.
    const own = await call(`/api/udwf/workflow-setup/${wf}`, {
      method: "PATCH",
      bearer: owner.bearer,
      json: { trigger: { type: "asset.uploaded", group_id: ownersGroup }, steps: [mailStep] },
    });
    expect(own.status, own.text).toBe(200);
  });

  it("to anyone it is not shared with it does not exist", async () => {
    expect((await call(`/api/udwf/workflow/${wf}`, { bearer: stranger.bearer })).status).toBe(404);
    expect((await call(`/api/udwf/workflow-shares/${wf}`, { bearer: stranger.bearer })).status).toBe(404);
    const listed = await call("/api/udwf/workflows", { bearer: stranger.bearer });
    expect(listed.body.items.map((w: { workflow_id: string }) => w.workflow_id)).not.toContain(wf);
  });

  it("refuses unknown users, the owner, hidden teams, bad roles and repeats, naming the field", async () => {
    const hiddenTeam = await mkGroup(VIRTUAL_ROOT);
    const r = await share(owner.bearer, [
      { subject_type: "user", subject: "nobody-at-all", role: "view" },
      { subject_type: "user", subject: owner.login, role: "edit" },
      { subject_type: "team", subject: hiddenTeam, role: "view" },
      { subject_type: "user", subject: viewer.id, role: "view" },
      { subject_type: "user", subject: viewer.login, role: "edit" },
    ]);
    expect(r.status).toBe(400);
    expect(fieldsOf(r).sort()).toEqual(["shares.0.subject", "shares.1.subject", "shares.2.subject", "shares.4.subject"]);
    const bad = await share(owner.bearer, [{ subject_type: "robot", subject: viewer.id, role: "own" }]);
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad).sort()).toEqual(["shares.0.role", "shares.0.subject_type"]);
  });

  it("unsharing takes it away again", async () => {
    expect((await share(owner.bearer, [])).status).toBe(200);
    expect((await call(`/api/udwf/workflow/${wf}`, { bearer: viewer.bearer })).status).toBe(404);
    expect((await call(`/api/udwf/workflow/${wf}`, { bearer: teamEditor.bearer })).status).toBe(404);
  });
});
