import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { events, uploads } from "../../db/schema";
import { startUpload as startUploadService } from "../../functions/uploads/service";
import { admin, call, db, mkPerson, VIRTUAL_ROOT, type Person } from "./fixtures";
import { api } from "./helpers";
import { createAsset, json, randomBytes, startUpload, uploadFile } from "./uploads.helpers";

/**
 * The per-user upload quota (docs/decisions/024-placing-rights-transcoder-quota.md): stored variants and
 * unfinished uploads count; a start past the quota is refused with 413 before the storage is asked.
 */

const setQuota = async (userId: string, quota: number | null) => {
  const r = await call(`/api/user/${userId}`, { method: "PATCH", json: { quota }, bearer: await admin() });
  expect(r.status).toBe(200);
  return r.body;
};
const start = async (p: Person, size: number) => {
  const { asset_id } = await createAsset(p.bearer);
  return startUpload(p.bearer, { asset_id, size, name: "clip.mp4", mime: "video/mp4" });
};

beforeAll(async () => {
  await admin(); // the first request on an empty database makes the admin
});

describe("per-user quota", () => {
  it("admin sets a quota; uploads count against it; a start past it is refused with a clear Russian 413", async () => {
    const p = await mkPerson();
    expect(await setQuota(p.id, 3000)).toMatchObject({ quota: 3000, quota_used: 0 });
    const { asset_id } = await createAsset(p.bearer);
    await uploadFile(p.bearer, asset_id, randomBytes(2000));
    expect((await call(`/api/user/${p.id}`, { bearer: await admin() })).body).toMatchObject({ quota: 3000, quota_used: 2000 });

    const over = await start(p, 1001);
    expect(over.status).toBe(413);
    const err = ((await over.json()) as { error: { message: string; details: { field: string }[] } }).error;
    expect(err.message).toMatch(/^Превышена квота: занято 2,0 КБ из 2,9 КБ, а файл — 1001 байт/);
    expect(err.details[0].field).toBe("size");

    // Under the quota: accepted; the unfinished upload then counts too.
    expect((await start(p, 1000)).status).toBe(200);
    expect((await start(p, 1)).status).toBe(413);
    expect((await call(`/api/user/${p.id}`, { bearer: await admin() })).body.quota_used).toBe(3000);

    // Back to the default (unlimited in this suite).
    await setQuota(p.id, null);
    expect((await start(p, 10_000)).status).toBe(200);
  });

  it("parallel starts cannot together pass the quota", async () => {
    const p = await mkPerson();
    await setQuota(p.id, 1000);
    const assets = await Promise.all(Array.from({ length: 6 }, () => createAsset(p.bearer)));
    const answers = await Promise.all(
      assets.map((a) => startUpload(p.bearer, { asset_id: a.asset_id, size: 300, name: "a.mp4", mime: "video/mp4" })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 413, 413, 413]);
    const active = await db().select().from(uploads).where(eq(uploads.userId, p.id));
    expect(active).toHaveLength(3);
    // A refused start leaves no event behind.
    const started = await db()
      .select()
      .from(events)
      .where(and(eq(events.userId, p.id), eq(events.kind, "upload.start")));
    expect(started).toHaveLength(3);
  });

  it("a copy counts against the copier's quota", async () => {
    const p = await mkPerson();
    const bearer = await admin();
    const group = (
      await call("/api/group/create", {
        method: "POST",
        bearer,
        json: { parent: VIRTUAL_ROOT, group_name: `Квота ${crypto.randomUUID()}` },
      })
    ).body.group_id;
    await call("/api/user/acl", { method: "POST", bearer, json: { subj: p.id, obj: group, acl: ["read", "create", "download"] } });
    const { asset_id } = await createAsset(p.bearer, { in_group: group });
    await uploadFile(p.bearer, asset_id, randomBytes(700));
    await setQuota(p.id, 1000);
    const copy = await call(`/api/asset/copy/${asset_id}/${group}`, { method: "POST", bearer: p.bearer });
    expect(copy.status).toBe(413);
    expect(copy.body.error.message).toMatch(/Превышена квота/);
  });

  it("a non-admin cannot change their own quota; bad values answer 400 naming quota", async () => {
    const p = await mkPerson();
    await setQuota(p.id, 10);
    const own = await call(`/api/user/${p.id}`, { method: "PATCH", json: { quota: null }, bearer: p.bearer });
    expect(own.status).toBe(403);
    expect((await call(`/api/user/${p.id}`, { bearer: await admin() })).body.quota).toBe(10);
    for (const quota of [-1, 1.5, "10"]) {
      const bad = await call(`/api/user/${p.id}`, { method: "PATCH", json: { quota }, bearer: await admin() });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.map((d: { field: string }) => d.field)).toContain("quota");
    }
  });

  it("DEFAULT_QUOTA_BYTES limits users without a quota of their own; their own quota wins", async () => {
    const p = await mkPerson();
    const auth = { userId: p.id, userName: p.login, login: p.login, isAdmin: false, isRobot: false, chrootGroups: [], sessionId: "" };
    const withDefault = { ...env, DEFAULT_QUOTA_BYTES: "100" } as typeof env;
    const body = async (size: number) => ({ asset_id: (await createAsset(p.bearer)).asset_id, size, name: "a.mp4", mime: "video/mp4" });
    await expect(startUploadService(db(), withDefault, auth, await body(101))).rejects.toMatchObject({ code: "payload_too_large" });
    expect(await startUploadService(db(), withDefault, auth, await body(100))).toMatchObject({ size: 100 });
    await setQuota(p.id, 1_000_000);
    expect(await startUploadService(db(), withDefault, auth, await body(5000))).toMatchObject({ size: 5000 });
  });
});

describe("per-user quota on the presigned path", () => {
  it("refuses the start before the bucket is asked", async () => {
    const s3Url = inject("s3Url");
    const bearer = await admin();
    const p = await mkPerson();
    const s = await json(
      api("/api/storage/create", {
        method: "POST",
        bearer,
        json: {
          storage_name: "S3 квота",
          kind: "s3",
          storage_setup: { url: s3Url, bucket: "mam-test", region: "us-east-1" },
          user: "S3RVER",
          passwd: "S3RVER",
        },
      }),
    );
    await call(`/api/user/${p.id}`, { method: "PATCH", json: { default_storage: s.storage_id, quota: 1000 }, bearer });
    const { asset_id } = await createAsset(p.bearer);
    const ok = await json(startUpload(p.bearer, { asset_id, size: 1000, name: "a.bin", mime: "application/octet-stream" }));
    expect(ok.mode).toBe("presigned");
    const over = await start(p, 1);
    expect(over.status).toBe(413);
  });
});
