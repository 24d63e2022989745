import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { fieldsOf, mkTag } from "./tags.helpers";

/** Automations: the catalogue, workflow CRUD, setup validation, enable/disable and who sees what. */

let owner: Person;
let other: Person;
let group: string;
let hidden: string;
let tagId: string;

beforeAll(async () => {
  owner = await mkPerson();
  other = await mkPerson();
  group = await mkGroup(VIRTUAL_ROOT);
  hidden = await mkGroup(VIRTUAL_ROOT);
  await grant(owner.id, group, ["read", "update", "create", "download", "share", "execute"]);
  tagId = await mkTag(uniq("Тег"));
});

async function mkWorkflow(bearer: string, name = uniq("Поток")) {
  const r = await call("/api/udwf/workflow", { method: "POST", bearer, json: { name } });
  expect(r.status, r.text).toBe(200);
  return r.body.workflow_id as string;
}

const setup = (bearer: string, id: string, json: unknown) => call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer, json });

describe("the action catalogue", () => {
  it("lists every action with a JSON schema of its parameters", async () => {
    const r = await call("/api/udwf/actions", { bearer: owner.bearer });
    expect(r.status).toBe(200);
    const actions = Object.fromEntries(r.body.actions.map((a: { action: string }) => [a.action, a]));
    expect(Object.keys(actions).sort()).toEqual(
      [
        "asset.copy",
        "asset.move",
        "email.send",
        "field.set",
        "review.request",
        "share-link.create",
        "stop-if",
        "tag.add",
        "tag.remove",
        "task.run",
        "taxon.add",
        "transcript.recognize",
        "webhook.call",
      ].sort(),
    );
    expect(actions["tag.add"].params).toMatchObject({ type: "object", properties: { tag_id: { type: "string" } }, required: ["tag_id"] });
    expect(actions["share-link.create"].params.properties.days).toMatchObject({ type: "integer", minimum: 1 });
    expect(r.body.triggers).toContain("schedule");
    expect(r.body.triggers).toContain("review.status-changed");
  });
});

describe("workflows", () => {
  it("are created, read, renamed and deleted by their owner; others get 404", async () => {
    const id = await mkWorkflow(owner.bearer, "Разметка");
    const got = await call(`/api/udwf/workflow/${id}`, { bearer: owner.bearer });
    expect(got.body).toMatchObject({ workflow_id: id, name: "Разметка", enabled: false, owner: owner.id, runs_count: 0, last_run: null });
    expect((await call(`/api/udwf/workflow/${id}`, { bearer: other.bearer })).status).toBe(404);
    expect((await call(`/api/udwf/workflow/${id}`, { method: "PATCH", bearer: other.bearer, json: { name: "x" } })).status).toBe(404);
    expect((await call(`/api/udwf/workflow/${id}`, { bearer: await admin() })).status).toBe(200);
    const mine = await call("/api/udwf/workflows", { bearer: owner.bearer });
    expect(mine.body.items.map((w: { workflow_id: string }) => w.workflow_id)).toContain(id);
    const theirs = await call("/api/udwf/workflows", { bearer: other.bearer });
    expect(theirs.body.items.map((w: { workflow_id: string }) => w.workflow_id)).not.toContain(id);
    expect((await call(`/api/udwf/workflow/${id}`, { method: "PATCH", bearer: owner.bearer, json: { name: "Разметка 2" } })).status).toBe(
      200,
    );
    expect((await call(`/api/udwf/workflow/${id}`, { bearer: owner.bearer })).body.name).toBe("Разметка 2");
    expect((await call(`/api/udwf/workflow/${id}`, { method: "DELETE", bearer: owner.bearer })).status).toBe(200);
    expect((await call(`/api/udwf/workflow/${id}`, { bearer: owner.bearer })).status).toBe(404);
  });

  it("refuses an empty name, naming the field", async () => {
    const r = await call("/api/udwf/workflow", { method: "POST", bearer: owner.bearer, json: { name: "  " } });
    expect(r.status).toBe(400);
    expect(fieldsOf(r)).toEqual(["name"]);
  });
});

describe("setup", () => {
  it("saves a valid setup and generates a whsec_ secret for a webhook step without one", async () => {
    const id = await mkWorkflow(owner.bearer);
    const r = await setup(owner.bearer, id, {
      trigger: { type: "asset.uploaded", group_id: group },
      conditions: [{ on: "mime", op: "prefix", value: "video/" }],
      steps: [
        { action: "tag.add", params: { tag_id: tagId } },
        { action: "webhook.call", params: { url: "https://hooks.example.com/in" } },
      ],
    });
    expect(r.status, r.text).toBe(200);
    const got = (await call(`/api/udwf/workflow/${id}`, { bearer: owner.bearer })).body;
    expect(got.trigger).toMatchObject({ type: "asset.uploaded", group_id: group, subtree: true });
    expect(got.steps[1].params.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
  });

  it("names the step and parameter of every problem", async () => {
    const id = await mkWorkflow(owner.bearer);
    const r = await setup(owner.bearer, id, {
      trigger: { type: "schedule", cron: "61 * * * *" },
      conditions: [{ on: "size", op: "prefix", value: 10 }],
      steps: [
        { action: "tag.add", params: { tag_id: crypto.randomUUID() } },
        { action: "share-link.create", params: { acl: ["view"], days: 0 } },
        { action: "asset.move", params: { to: hidden } },
        { action: "nope", params: {} },
      ],
    });
    expect(r.status).toBe(400);
    expect(fieldsOf(r).sort()).toEqual(["conditions.0.op", "steps.1.params.days", "steps.3.action"].sort());
    const second = await setup(owner.bearer, id, {
      trigger: { type: "schedule", cron: "61 * * * *" },
      steps: [
        { action: "tag.add", params: { tag_id: crypto.randomUUID() } },
        { action: "asset.move", params: { to: hidden } },
      ],
    });
    // A group its saver cannot reach makes it a 403; every problem is still named.
    expect(second.status).toBe(403);
    expect(fieldsOf(second).sort()).toEqual(["steps.0.params.tag_id", "steps.1.params.to", "trigger.cron"].sort());
    const third = await setup(owner.bearer, id, {
      trigger: { type: "schedule", cron: "61 * * * *" },
      steps: [{ action: "tag.add", params: { tag_id: crypto.randomUUID() } }],
    });
    expect(third.status).toBe(400);
    expect(fieldsOf(third).sort()).toEqual(["steps.0.params.tag_id", "trigger.cron"].sort());
  });

  it("needs a trigger and steps before it can be enabled; enabling and disabling are kept", async () => {
    const id = await mkWorkflow(owner.bearer);
    const early = await call(`/api/udwf/workflow-enable-disable/${id}`, { method: "POST", bearer: owner.bearer, json: { enabled: true } });
    expect(early.status).toBe(400);
    expect(fieldsOf(early)).toEqual(["enabled"]);
    await setup(owner.bearer, id, { trigger: { type: "manual" }, steps: [{ action: "tag.add", params: { tag_id: tagId } }] });
    for (const enabled of [true, false, true]) {
      const r = await call(`/api/udwf/workflow-enable-disable/${id}`, { method: "POST", bearer: owner.bearer, json: { enabled } });
      expect(r.status).toBe(200);
      expect((await call(`/api/udwf/workflow/${id}`, { bearer: owner.bearer })).body.enabled).toBe(enabled);
    }
    expect(
      (await call(`/api/udwf/workflow-enable-disable/${id}`, { method: "POST", bearer: other.bearer, json: { enabled: false } })).status,
    ).toBe(404);
  });

  it("a webhook trigger gets a secret URL, shown to the workflow's editors", async () => {
    const id = await mkWorkflow(owner.bearer);
    await setup(owner.bearer, id, {
      trigger: { type: "webhook" },
      steps: [{ action: "email.send", params: { to: ["a@example.com"], subject: "s", body: "b" } }],
    });
    const got = (await call(`/api/udwf/workflow/${id}`, { bearer: owner.bearer })).body;
    expect(got.hook_url).toMatch(new RegExp(`/api/udwf/hook/${id}/[A-Za-z0-9_-]{20,}$`));
  });

  it("the trigger form lists a manual workflow's fields", async () => {
    const id = await mkWorkflow(owner.bearer);
    await setup(owner.bearer, id, {
      trigger: { type: "manual", form: [{ name: "note", label: "Заметка", type: "string", required: true }] },
      steps: [{ action: "tag.add", params: { tag_id: tagId } }],
    });
    const r = await call(`/api/udwf/trigger-form/${id}`, { bearer: owner.bearer });
    expect(r.body).toEqual({ fields: [{ name: "note", label: "Заметка", type: "string", required: true, default: null }], entities: true });
    const missing = await call(`/api/udwf/execute/${id}`, { method: "POST", bearer: owner.bearer, json: {} });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toEqual(["form.note"]);
  });
});
