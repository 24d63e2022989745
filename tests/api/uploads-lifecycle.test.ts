import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { assets, uploadParts, uploads, users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import type { AuthUser, Env } from "../../functions/lib/env";
import { completeUpload } from "../../functions/uploads/complete";
import type { JobMessage } from "../../queues/messages";
import worker from "../../worker";
import { api, login } from "./helpers";
import { createAsset, json, putParts, randomBytes, startUpload } from "./uploads.helpers";

/** What happens around an upload: the cron cleaning abandoned ones (both byte paths) and the JOBS message of a finished one. */

const MiB = 1024 * 1024;
const db = () => getDb(env);
let bearer: string;
beforeAll(async () => {
  bearer = (await login()).bearer;
});

/** Runs the Worker's own cron entry (worker.ts `scheduled` → functions/system/housekeeping.ts) to its end. */
async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env as unknown as Env, ctx);
  await waitOnExecutionContext(ctx);
}

const abandon = (uploadId: string) => db().update(uploads).set({ expiresAt: 1 }).where(eq(uploads.uploadId, uploadId));
const uploadRow = async (uploadId: string) => (await db().select().from(uploads).where(eq(uploads.uploadId, uploadId)).get())!;

/** Records the S3 requests the Worker makes while still sending them to the real S3 server. */
const realFetch = globalThis.fetch;
let s3Calls: string[] = [];
afterEach(() => {
  globalThis.fetch = realFetch;
});
function recordS3(s3Url: string) {
  s3Calls = [];
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (req.url.startsWith(s3Url)) s3Calls.push(`${req.method} ${new URL(req.url).search.includes("uploadId=") ? "multipart" : "object"}`);
    return realFetch(req);
  };
}

describe("the scheduled handler", () => {
  it("aborts an abandoned Worker-path upload half-way: parts gone, a new asset with it, an active one untouched", async () => {
    const data = randomBytes(6 * MiB);
    const { asset_id } = await createAsset(bearer);
    const up = await json(startUpload(bearer, { asset_id, size: data.length, name: "a.mp4", mime: "video/mp4", part_size: 5 * MiB }));
    await putParts(bearer, up.upload_id, data, up.part_size, [1]);
    const live = await createAsset(bearer);
    const kept = await json(startUpload(bearer, { asset_id: live.asset_id, size: 10, name: "b.mp4", mime: "video/mp4" }));
    await abandon(up.upload_id);

    await runCron();
    expect((await uploadRow(up.upload_id)).state).toBe("aborted");
    expect(await db().select().from(uploadParts).where(eq(uploadParts.uploadId, up.upload_id)).all()).toEqual([]);
    expect(await db().select().from(assets).where(eq(assets.assetId, asset_id)).get()).toBeUndefined();
    expect((await uploadRow(kept.upload_id)).state).toBe("active");
    expect((await api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer })).status).toBe(410);
  });

  it("aborts an abandoned presigned upload at the S3 server too", async () => {
    const s3Url = inject("s3Url");
    const s = await json(
      api("/api/storage/create", {
        method: "POST",
        bearer,
        json: {
          storage_name: "S3 крон",
          kind: "s3",
          storage_setup: { url: s3Url, bucket: "mam-test", region: "us-east-1" },
          user: "S3RVER",
          passwd: "S3RVER",
        },
      }),
    );
    const data = randomBytes(6 * MiB);
    const { asset_id } = await createAsset(bearer);
    await json(api(`/api/storage/for-entity/${asset_id}`, { method: "POST", bearer, json: { storage_id: s.storage_id } }));
    const up = await json(startUpload(bearer, { asset_id, size: data.length, name: "a.mp4", mime: "video/mp4", part_size: 5 * MiB }));
    expect(up.mode).toBe("presigned");
    await putParts(bearer, up.upload_id, data, up.part_size, [2]);
    await abandon(up.upload_id);

    recordS3(s3Url);
    await runCron();
    // The multipart upload is aborted at the bucket (DELETE ?uploadId=), where its parts are billed.
    expect(s3Calls).toContain("DELETE multipart");
    expect((await uploadRow(up.upload_id)).state).toBe("aborted");
    expect(await db().select().from(assets).where(eq(assets.assetId, asset_id)).get()).toBeUndefined();
  });
});

describe("a finished upload", () => {
  it("puts one upload-finished message on JOBS describing the new variant", async () => {
    const data = randomBytes(1000);
    const { asset_id } = await createAsset(bearer);
    const up = await json(
      startUpload(bearer, { asset_id, size: data.length, name: "Клип.mp4", mime: "video/mp4", sha256: "ab".repeat(32) }),
    );
    await putParts(bearer, up.upload_id, data, up.part_size, [1]);

    // The real complete, with a JOBS binding that records what it is given (as tests/api/tasks.helpers.ts does).
    const sent: JobMessage[] = [];
    const jobs = {
      send: async (m: JobMessage) => void sent.push(m),
      sendBatch: async (ms: { body: JobMessage }[]) => void sent.push(...ms.map((m) => m.body)),
    };
    const u = (await db().select().from(users).where(eq(users.login, "admin")).get())!;
    const auth: AuthUser = {
      userId: u.userId,
      userName: u.userName,
      login: u.login,
      isAdmin: true,
      isRobot: false,
      chrootGroups: [],
      sessionId: "test",
    };
    const done = await completeUpload(db(), { ...(env as unknown as Env), JOBS: jobs as never }, auth, up.upload_id);

    expect(sent).toEqual([
      {
        type: "upload-finished",
        assetId: asset_id,
        version: 1,
        variantId: done.variant_id,
        variantType: "initial",
        size: 1000,
        mime: "video/mp4",
        sha256: "ab".repeat(32),
        userId: u.userId,
      },
    ]);
    const ev = await env.DB.prepare("SELECT kind FROM events WHERE entity_id = ?").bind(asset_id).all<{ kind: string }>();
    expect(ev.results.map((e) => e.kind)).toEqual(expect.arrayContaining(["upload.start", "upload.complete"]));
  });
});
