import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { variants } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { admin, call, mkGroup, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { handedOverTask, mkMediaAsset, T, taskRow } from "./tasks.helpers";

/**
 * Outputs in parts (decision 011): an output over one request's size is started, sent in parts and
 * assembled with the storage's multipart upload, then registered by the result like a single PUT.
 */
const MiB = 1024 * 1024;
let adminId: string;
let group: string;

beforeAll(async () => {
  adminId = (await call("/api/auth/whoami", { bearer: await admin() })).body.id;
  group = await mkGroup(VIRTUAL_ROOT);
});

/** A proxy task handed to the fake transcoder; returns the job it got (signed output URL, token). */
const handedOver = async () => handedOverTask(await mkMediaAsset(group, adminId), T.proxyLow);

/** The output URL with a path suffix and extra query parameters, as the transcoder builds them. */
const at = (job: any, suffix: string, params: Record<string, string> = {}, name = "proxy") => {
  const u = new URL(job.outputs[name]);
  u.pathname += suffix;
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
};
const headers = (job: any, extra: Record<string, string> = {}) => ({ "X-Task-Token": job.callback.token, ...extra });
const post = (job: any, url: string, json: unknown) => api(url, { method: "POST", headers: headers(job), json });
const putPart = (job: any, uploadId: string, part: number, bytes: Uint8Array) =>
  api(at(job, `/part/${part}`, { upload_id: uploadId }), {
    method: "PUT",
    headers: headers(job, { "Content-Length": String(bytes.length) }),
    body: bytes as BodyInit,
  });

describe("outputs in parts", () => {
  it("start, parts, complete: the result registers the assembled file", async () => {
    const job = await handedOver();
    const start = await post(job, at(job, "/multipart"), { mime: "video/mp4" });
    expect(start.status, await start.clone().text()).toBe(200);
    const { upload_id } = (await start.json()) as { upload_id: string };
    const first = new Uint8Array(5 * MiB).fill(7);
    const last = new TextEncoder().encode("the tail of the proxy");
    const etags = [];
    for (const [part, bytes] of [
      [1, first],
      [2, last],
    ] as const) {
      const res = await putPart(job, upload_id, part, bytes);
      expect(res.status, await res.clone().text()).toBe(200);
      etags.push({ part, etag: ((await res.json()) as { etag: string }).etag });
    }
    const done = await post(job, at(job, "/complete"), { upload_id, parts: etags });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.json()).toMatchObject({ name: "proxy", size: first.length + last.length });

    const result = await post(job, `${job.callback.url}/result`, {
      run: 1,
      outputs: [{ name: "proxy", mime: "video/mp4", format: "mp4" }],
    });
    expect(result.status, await result.clone().text()).toBe(200);
    const t = await taskRow(job.id);
    expect(t.status).toBe("done");
    const v = await getDb(env).select().from(variants).where(eq(variants.variantId, t.dstEntity!)).get();
    expect(v).toMatchObject({ variantType: "proxy_lowres", contentSize: first.length + last.length });
    const stored = await env.BUCKET.get(v!.objectKey);
    const bytes = new Uint8Array(await stored!.arrayBuffer());
    expect([bytes.length, bytes[0], new TextDecoder().decode(bytes.subarray(first.length))]).toEqual([
      first.length + last.length,
      7,
      "the tail of the proxy",
    ]);
  });

  it("refuses a bad signature, a wrong token, an unknown output, bad input and parts out of order", async () => {
    const job = await handedOver();
    const forged = (url: string) => url.replace(/sig=[0-9a-f]+/, `sig=${"0".repeat(64)}`);
    expect((await post(job, forged(at(job, "/multipart")), { mime: "video/mp4" })).status).toBe(403);
    expect(
      (
        await api(at(job, "/multipart"), {
          method: "POST",
          headers: { "X-Task-Token": "forged", "Content-Type": "application/json" },
          body: '{"mime":"video/mp4"}',
        })
      ).status,
    ).toBe(401);
    // The signature covers the output name: another name's URL with this signature is refused.
    expect((await post(job, at(job, "/multipart").replace("/out/proxy/", "/out/preview/"), { mime: "image/jpeg" })).status).toBe(403);
    const noMime = await post(job, at(job, "/multipart"), {});
    expect([noMime.status, ((await noMime.json()) as any).error.details[0].field]).toEqual([400, "mime"]);

    const { upload_id } = (await (await post(job, at(job, "/multipart"), { mime: "video/mp4" })).json()) as { upload_id: string };
    expect((await putPart(job, upload_id, 0, new Uint8Array(3))).status).toBe(400);
    const noId = await api(at(job, "/part/1"), {
      method: "PUT",
      headers: headers(job, { "Content-Length": "3" }),
      body: new Uint8Array(3),
    });
    expect([noId.status, ((await noId.json()) as any).error.details[0].field]).toEqual([400, "upload_id"]);
    expect((await putPart(job, "not-an-upload", 1, new Uint8Array(3))).status).toBe(400);
    const gap = await post(job, at(job, "/complete"), { upload_id, parts: [{ part: 2, etag: "x" }] });
    expect([gap.status, ((await gap.json()) as any).error.details[0].field]).toEqual([400, "parts"]);
    const empty = await post(job, at(job, "/complete"), { upload_id, parts: [] });
    expect(empty.status).toBe(400);
  });

  it("a run no longer wanted gets 409 for its parts", async () => {
    const job = await handedOver();
    const { upload_id } = (await (await post(job, at(job, "/multipart"), { mime: "video/mp4" })).json()) as { upload_id: string };
    const paused = await call(`/api/tasklist/command/${job.id}`, { method: "POST", bearer: await admin(), json: { command: "pause" } });
    expect(paused.status).toBe(200);
    expect((await putPart(job, upload_id, 1, new Uint8Array(10))).status).toBe(409);
    expect((await post(job, at(job, "/complete"), { upload_id, parts: [{ part: 1, etag: "x" }] })).status).toBe(409);
  });
});
