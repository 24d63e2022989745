import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events, tasks } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { commandTable, taskCommands } from "../../shared/tasks/transitions";
import { admin, call, grant, mkGroup, mkPerson, VIRTUAL_ROOT, type Person } from "./fixtures";
import { mkMediaAsset, mkTask, T, taskRow } from "./tasks.helpers";

/** /api/tasklist: transitions, validation, access, filters, templates. The queue side is in queue.test.ts. */

const statuses = ["none", "inqueue", "running", "paused", "canceled", "done", "error"] as const;
let adminBearer: string;
let adminId: string;
let group: string;
let reader: Person;
let editor: Person;
let executor: Person;
let outsider: Person;
let asset: { assetId: string; variantId: string; name: string };

beforeAll(async () => {
  adminBearer = await admin();
  adminId = (await call("/api/auth/whoami", { bearer: adminBearer })).body.id;
  group = await mkGroup(VIRTUAL_ROOT);
  [reader, editor, executor, outsider] = await Promise.all([mkPerson(), mkPerson(), mkPerson(), mkPerson()]);
  await grant(reader.id, group, ["read"]);
  await grant(editor.id, group, ["read", "update"]);
  await grant(executor.id, group, ["read", "execute"]);
  asset = await mkMediaAsset(group, adminId);
});

describe("transitions", () => {
  for (const from of statuses) {
    for (const command of taskCommands) {
      const rule = commandTable[command];
      const allowed = rule.from.includes(from);
      it(`${command} in ${from}: ${allowed ? rule.to : "409"}`, async () => {
        const id = await mkTask(asset, from);
        const r = await call(`/api/tasklist/command/${id}`, { method: "POST", json: { command }, bearer: adminBearer });
        if (allowed) {
          expect(r.status, r.text).toBe(200);
          expect(r.body.status).toBe(rule.to);
          expect((await taskRow(id)).status).toBe(rule.to);
          const ev = await getDb(env)
            .select()
            .from(events)
            .where(and(eq(events.entityId, id), eq(events.kind, "task.status")))
            .all();
          expect(ev).toHaveLength(1);
          expect(ev[0].data).toMatchObject({ command, from, to: rule.to });
        } else {
          expect(r.status).toBe(409);
          expect(r.body.error.details).toEqual([{ field: "status", message: from }]);
          expect(r.body.error.message).toContain(from);
          expect((await taskRow(id)).status).toBe(from);
        }
      });
    }
  }

  it("task-commands lists exactly the commands valid in the current status", async () => {
    for (const s of statuses) {
      const id = await mkTask(asset, s);
      const r = await call(`/api/tasklist/task-commands/${id}`, { bearer: reader.bearer });
      expect(r.body).toEqual({ status: s, commands: taskCommands.filter((c) => commandTable[c].from.includes(s)) });
    }
  });

  it("restart clears the outcome and gives the task a new output variant id", async () => {
    const id = await mkTask(asset, "done");
    const before = await taskRow(id);
    const r = await call(`/api/tasklist/command/${id}`, { method: "POST", json: { command: "restart" }, bearer: editor.bearer });
    expect(r.status).toBe(200);
    const after = await taskRow(id);
    expect(after).toMatchObject({ status: "inqueue", progress: 0, error: null, result: null, stopTime: null });
    expect(after.dstEntity).not.toBe(before.dstEntity);
  });
});

describe("validation", () => {
  const cases: [string, string, unknown, string][] = [
    ["GET", "/api/tasklist/current?status=bogus", undefined, "status.0"],
    ["GET", "/api/tasklist/current?take=0", undefined, "take"],
    ["GET", "/api/tasklist/current?owner=nope", undefined, "owner"],
    ["GET", "/api/tasklist/task/not-a-uuid", undefined, "id"],
    ["POST", `/api/tasklist/command/${crypto.randomUUID()}`, { command: "explode" }, "command"],
    ["POST", `/api/tasklist/priority/${crypto.randomUUID()}`, { priority: 1000 }, "priority"],
    ["POST", `/api/tasklist/priority/${crypto.randomUUID()}`, {}, "priority"],
    ["POST", "/api/tasklist/task-status", { ids: [] }, "ids"],
    ["POST", `/api/tasklist/enqueue-task/${crypto.randomUUID()}`, {}, "template_id"],
    ["GET", "/api/tasklist/task-templates/teleport", undefined, "class"],
    ["GET", `/api/tasklist/log/${crypto.randomUUID()}?after=-1`, undefined, "after"],
    [
      "POST",
      "/api/tasklist/task-templates",
      { name: "x", operation_class: "proxy", setup: { height: 5, video_bitrate: "fast" } },
      "setup.height",
    ],
    ["POST", "/api/tasklist/task-templates", { name: "x", operation_class: "watermark", setup: {} }, "setup.text"],
  ];
  it.each(cases)("%s %s answers 400 naming %s", async (method, path, json, field) => {
    const r = await call(path, { method, json, bearer: adminBearer });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("answers 404 for a task that does not exist", async () => {
    const r = await call(`/api/tasklist/task/${crypto.randomUUID()}`, { bearer: adminBearer });
    expect(r.status).toBe(404);
  });
});

describe("access", () => {
  it("readers see tasks, editors command them, outsiders get 404 and an empty list", async () => {
    const id = await mkTask(asset, "inqueue");
    expect((await call(`/api/tasklist/task/${id}`, { bearer: reader.bearer })).status).toBe(200);
    expect((await call(`/api/tasklist/command/${id}`, { method: "POST", json: { command: "pause" }, bearer: reader.bearer })).status).toBe(
      403,
    );
    expect((await call(`/api/tasklist/priority/${id}`, { method: "POST", json: { priority: 3 }, bearer: reader.bearer })).status).toBe(403);
    expect(
      (await call(`/api/tasklist/priority/${id}`, { method: "POST", json: { priority: 3 }, bearer: editor.bearer })).body.priority,
    ).toBe(3);
    for (const path of [
      `/api/tasklist/task/${id}`,
      `/api/tasklist/log/${id}`,
      `/api/tasklist/task-result/${id}`,
      `/api/tasklist/task-commands/${id}`,
    ]) {
      expect((await call(path, { bearer: outsider.bearer })).status).toBe(404);
    }
    expect(
      (await call(`/api/tasklist/command/${id}`, { method: "POST", json: { command: "pause" }, bearer: outsider.bearer })).status,
    ).toBe(404);
    const list = await call(`/api/tasklist/current?entity=${asset.assetId}`, { bearer: outsider.bearer });
    expect(list.body).toEqual([]);
    expect((await call(`/api/tasklist/current/count?entity=${asset.assetId}`, { bearer: outsider.bearer })).body).toEqual({ count: 0 });
    expect((await call("/api/tasklist/task-status", { method: "POST", json: { ids: [id] }, bearer: outsider.bearer })).body).toEqual([]);
    expect((await call("/api/tasklist/task-status", { method: "POST", json: { ids: [id] }, bearer: reader.bearer })).body[0]).toMatchObject(
      { job_id: id, status: "inqueue", commands: ["pause", "cancel"] },
    );
  });

  it("execute governs enqueueing by hand; the template must apply to the file", async () => {
    const url = `/api/tasklist/enqueue-task/${asset.assetId}`;
    expect((await call(url, { method: "POST", json: { template_id: T.metadata }, bearer: editor.bearer })).status).toBe(403);
    expect((await call(url, { method: "POST", json: { template_id: T.metadata }, bearer: outsider.bearer })).status).toBe(404);
    const ok = await call(url, { method: "POST", json: { template_id: T.proxyHigh, priority: 7 }, bearer: executor.bearer });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({
      status: "inqueue",
      priority: 7,
      owner: executor.id,
      asset_id: asset.assetId,
      src_entity: asset.variantId,
      template: "Прокси 720p",
    });
    const held = await call(url, { method: "POST", json: { template_id: T.metadata, hold: true }, bearer: executor.bearer });
    expect(held.body.status).toBe("none");
    const pdf = await mkMediaAsset(group, adminId, { mime: "application/pdf", name: "Договор.pdf" });
    const wrong = await call(`/api/tasklist/enqueue-task/${pdf.assetId}`, {
      method: "POST",
      json: { template_id: T.proxyLow },
      bearer: executor.bearer,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].field).toBe("template_id");
  });
});

describe("lists", () => {
  it("filters by status, template, owner and entity, pages, and counts the same rows", async () => {
    const a = await mkMediaAsset(group, adminId);
    const ids = [
      await mkTask(a, "done", T.metadata, editor.id),
      await mkTask(a, "error", T.preview),
      await mkTask(a, "running", T.proxyLow),
      await mkTask(a, "inqueue", T.proxyLow),
    ];
    const q = (s: string) => call(`/api/tasklist/current?entity=${a.assetId}${s}`, { bearer: reader.bearer });
    expect((await q("")).body.map((t: { job_id: string }) => t.job_id)).toEqual([...ids].reverse());
    expect((await q("&status=done,error")).body).toHaveLength(2);
    expect((await q(`&template=${T.proxyLow}`)).body).toHaveLength(2);
    expect((await q(`&owner=${editor.id}`)).body.map((t: { owner_name: string }) => t.owner_name)).toEqual([editor.login]);
    expect((await q("&take=3&skip=2")).body).toHaveLength(2);
    expect((await q("")).body[0]).toMatchObject({ asset_name: a.name, version: 1, progress: 0 });
    expect((await call(`/api/tasklist/current/count?entity=${a.assetId}&status=inqueue`, { bearer: reader.bearer })).body).toEqual({
      count: 1,
    });
    const names = (await call("/api/tasklist/names", { bearer: reader.bearer })).body;
    expect(names.map((n: { name: string }) => n.name)).toEqual(expect.arrayContaining(["Превью", "Прокси 360p"]));
  });

  it("answers the log after a sequence number", async () => {
    const id = await mkTask(asset, "inqueue");
    await call(`/api/tasklist/command/${id}`, { method: "POST", json: { command: "pause" }, bearer: adminBearer });
    const all = (await call(`/api/tasklist/log/${id}`, { bearer: reader.bearer })).body;
    expect(all.map((l: { line: string }) => l.line)).toEqual([
      expect.stringContaining("Задача создана"),
      expect.stringContaining("inqueue → paused"),
    ]);
    const rest = (await call(`/api/tasklist/log/${id}?after=${all[0].seq}`, { bearer: reader.bearer })).body;
    expect(rest).toHaveLength(1);
  });

  it("refuses a priority change on a finished task with 409", async () => {
    const id = await mkTask(asset, "done");
    const r = await call(`/api/tasklist/priority/${id}`, { method: "POST", json: { priority: 1 }, bearer: adminBearer });
    expect(r.status).toBe(409);
    expect(r.body.error.details).toEqual([{ field: "status", message: "done" }]);
  });
});

describe("templates are data", () => {
  it("an admin adds a proxy profile; it is listed, applies to videos and can be disabled", async () => {
    const r = await call("/api/tasklist/task-templates", {
      method: "POST",
      bearer: adminBearer,
      json: {
        name: "Прокси 1080p HEVC",
        operation_class: "proxy",
        setup: { height: 1080, video_bitrate: "6M", codec: "hevc", variant_type: "untyped" },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.setup).toMatchObject({
      height: 1080,
      video_bitrate: "6M",
      codec: "hevc",
      audio_bitrate: "128k",
      preset: "veryfast",
      on_upload: [],
    });
    const profiles = (await call(`/api/tasklist/available-profiles/${asset.assetId}`, { bearer: reader.bearer })).body;
    expect(profiles.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([r.body.id, T.proxyLow, T.proxyHigh, T.audio]));
    const wm = await call("/api/tasklist/task-templates", {
      method: "POST",
      bearer: adminBearer,
      json: { name: "Логотип", operation_class: "watermark", setup: { image_asset_id: asset.assetId, opacity: 0.3, position: "top-left" } },
    });
    expect(wm.status, wm.text).toBe(200);
    await call(`/api/tasklist/task-template/${r.body.id}`, { method: "PATCH", bearer: adminBearer, json: { disabled: true } });
    expect(
      (await call("/api/tasklist/task-templates/proxy", { bearer: reader.bearer })).body.map((p: { id: string }) => p.id),
    ).not.toContain(r.body.id);
    expect((await call("/api/tasklist/task-templates/proxy", { bearer: adminBearer })).body.map((p: { id: string }) => p.id)).toContain(
      r.body.id,
    );
    expect((await call("/api/tasklist/available-tasks", { bearer: reader.bearer })).body.map((p: { id: string }) => p.id)).not.toContain(
      r.body.id,
    );
    const bad = await call(`/api/tasklist/task-template/${T.proxyLow}`, {
      method: "PATCH",
      bearer: adminBearer,
      json: { setup: { height: 1 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toContain("setup.height");
  });

  it("all default templates are there on first use", async () => {
    const all = (await call("/api/tasklist/task-templates/all", { bearer: reader.bearer })).body;
    expect(all.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(Object.values(T)));
  });
});

describe("the tasks of an unplaced asset", () => {
  it("belong to its owner alone", async () => {
    const a = await mkMediaAsset(null, editor.id);
    const id = await mkTask(a, "running");
    expect((await call(`/api/tasklist/task/${id}`, { bearer: editor.bearer })).status).toBe(200);
    expect((await call(`/api/tasklist/task/${id}`, { bearer: reader.bearer })).status).toBe(404);
    expect((await call(`/api/tasklist/current?entity=${a.assetId}`, { bearer: editor.bearer })).body).toHaveLength(1);
    void tasks;
  });
});
