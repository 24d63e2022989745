import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { grant, mkGroup, mkPerson, VIRTUAL_ROOT } from "./fixtures";
import { api, errorOf, login } from "./helpers";
import { createAsset, json, putParts, randomBytes, sha256, startUpload, uploadFile } from "./uploads.helpers";

const MiB = 1024 * 1024;
let bearer: string;
beforeAll(async () => {
  bearer = (await login()).bearer;
});

describe("multipart upload through the Worker (R2 binding)", () => {
  it("survives an interruption half-way: resumes only the missing parts and downloads byte-identical", async () => {
    const data = randomBytes(12 * MiB + 12345);
    const { asset_id } = await createAsset(bearer, { asset_name: "Отпуск.mp4" });
    const up = await json(
      startUpload(bearer, {
        asset_id,
        size: data.length,
        name: "Отпуск.mp4",
        mime: "video/mp4",
        part_size: 5 * MiB,
        sha256: await sha256(data),
      }),
    );
    expect(up).toMatchObject({
      part_count: 3,
      part_size: 5 * MiB,
      mode: "worker",
      variant_type: "initial",
      version: 1,
      missing: [1, 2, 3],
    });

    await putParts(bearer, up.upload_id, data, up.part_size, [3, 1]); // out of order, then the tab closes
    const resumed = await json(api(`/api/ul?asset_id=${asset_id}`, { bearer }));
    expect(resumed.find((u: { upload_id: string }) => u.upload_id === up.upload_id).missing).toEqual([2]);
    const status = await json(api(`/api/ul/${up.upload_id}`, { bearer }));
    expect(status.missing).toEqual([2]);
    expect(status.parts.map((p: { part: number }) => p.part)).toEqual([1, 3]);

    // Not available before complete.
    expect(await api(`/api/asset/versions/${asset_id}`, { bearer }).then((r) => r.json())).toEqual([]);
    await putParts(bearer, up.upload_id, data, up.part_size, [2]);
    const done = await json(api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer }));
    expect(done).toMatchObject({ asset_id, version: 1, variant_type: "initial", content_size: data.length });
    // The storage's ETag of an object assembled from parts: MD5 of the parts' MD5s, "-" and the part count.
    const partMd5s = [0, 1, 2].map((i) =>
      createHash("md5")
        .update(data.subarray(i * 5 * MiB, (i + 1) * 5 * MiB))
        .digest(),
    );
    expect(done.etag.replace(/"/g, "")).toBe(
      `${createHash("md5")
        .update(new Uint8Array(partMd5s.flatMap((d) => [...d])))
        .digest("hex")}-3`,
    );

    const res = await api(`/api/asset/content/download/${asset_id}/1/initial`, { bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe(String(data.length));
    expect(await sha256(await res.arrayBuffer())).toBe(await sha256(data));
    // Ranges of the object the parts were assembled into: across the seam of parts 1 and 2, across all three,
    // and inside the short last part, each exactly those bytes.
    for (const [from, to] of [
      [5 * MiB - 100, 5 * MiB + 99],
      [5 * MiB - 1, 10 * MiB + 1],
      [12 * MiB, 12 * MiB + 12344],
    ]) {
      const r = await api(`/api/asset/content/download/${asset_id}/1/initial`, { bearer, headers: { Range: `bytes=${from}-${to}` } });
      expect(r.status).toBe(206);
      expect(await sha256(await r.arrayBuffer())).toBe(await sha256(data.slice(from, to + 1)));
    }
    const after = await json(api(`/api/ul/${up.upload_id}`, { bearer }));
    expect(after.state).toBe("completed");
    expect(after.worker_bytes).toBe(data.length);
  });

  it("serves Range reads (206, several seeks), ETag/If-None-Match and a Cyrillic Content-Disposition", async () => {
    const data = randomBytes(300_000);
    const { asset_id } = await createAsset(bearer);
    const name = "Отчёт за март «итог».mp4";
    const { done } = await uploadFile(bearer, asset_id, data, { name });
    const url = `/api/asset/content/download-variant/${done.variant_id}`;
    for (const [from, to] of [
      [1000, 1999],
      [150_000, 150_009],
      [299_990, 299_999],
    ]) {
      const r = await api(url, { bearer, headers: { Range: `bytes=${from}-${to}` } });
      expect(r.status).toBe(206);
      expect(r.headers.get("Content-Range")).toBe(`bytes ${from}-${to}/300000`);
      expect(new Uint8Array(await r.arrayBuffer())).toEqual(data.slice(from, to + 1));
    }
    const suffix = await api(url, { bearer, headers: { Range: "bytes=-10" } });
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(data.slice(-10));
    expect((await api(url, { bearer, headers: { Range: "bytes=400000-" } })).status).toBe(416);

    const full = await api(url, { bearer });
    const etag = full.headers.get("ETag")!;
    await full.arrayBuffer();
    expect(etag).toMatch(/^"/);
    const cd = full.headers.get("Content-Disposition")!;
    expect(cd).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(cd)![1])).toBe(name);
    const again = await api(url, { bearer, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("gives a play link that streams with Range and no headers, and refuses a tampered one", async () => {
    const data = randomBytes(50_000);
    const { asset_id } = await createAsset(bearer);
    await uploadFile(bearer, asset_id, data);
    const play = await json(api(`/api/asset/content/play/${asset_id}`, { method: "POST", bearer }));
    expect(play.range).toBe(true);
    expect(play.expire).toBeGreaterThan(Date.now() / 1000);
    const r = await api(new URL(play.link).pathname + new URL(play.link).search, { headers: { Range: "bytes=100-199" } });
    expect(r.status).toBe(206);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(data.slice(100, 200));
    const tampered = play.link.replace(/sig=[0-9a-f]/, (m: string) => m.slice(0, -1) + (m.endsWith("0") ? "1" : "0"));
    expect((await api(new URL(tampered).pathname + new URL(tampered).search)).status).toBe(403);
  });

  it("a second upload becomes version 2 (untyped into an existing version) and version 1 stays intact", async () => {
    const v1 = randomBytes(10_000, 7);
    const { asset_id } = await createAsset(bearer);
    await uploadFile(bearer, asset_id, v1);
    const v2 = await uploadFile(bearer, asset_id, randomBytes(20_000, 8));
    expect(v2.done).toMatchObject({ version: 2, variant_type: "initial" });
    const into1 = await uploadFile(bearer, asset_id, randomBytes(5_000, 9), { version: 1 });
    expect(into1.done).toMatchObject({ version: 1, variant_type: "untyped" });
    const versions = await json(api(`/api/asset/versions/${asset_id}`, { bearer }));
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1, 1]);
    const old = await api(`/api/asset/content/download/${asset_id}/1/initial`, { bearer });
    expect(await sha256(await old.arrayBuffer())).toBe(await sha256(v1));
  });
});

describe("bad input gets a clear 4xx and leaves earlier versions intact", () => {
  it("rejects wrong part sizes, numbers out of range, missing parts, double complete and races", async () => {
    const v1 = randomBytes(8_000);
    const { asset_id } = await createAsset(bearer);
    await uploadFile(bearer, asset_id, v1);
    const data = randomBytes(6 * MiB);
    const up = await json(startUpload(bearer, { asset_id, size: data.length, name: "b.mp4", mime: "video/mp4", part_size: 5 * MiB }));

    const racing = await startUpload(bearer, { asset_id, size: 10, name: "c.mp4", mime: "video/mp4", version: 1, variant_type: "initial" });
    const second = await startUpload(bearer, { asset_id, size: 10, name: "c.mp4", mime: "video/mp4", version: 1, variant_type: "initial" });
    expect([racing.status, second.status].sort()).toEqual([200, 409]);

    const [t1] = await json(api(`/api/ul/${up.upload_id}/targets`, { method: "POST", bearer, json: { parts: [1] } }));
    const tooBig = await api(t1.url, { method: "PUT", body: data.slice(0, 5 * MiB + 1) });
    expect(tooBig.status).toBe(400);
    expect((await errorOf(tooBig)).message).toMatch(/ровно/);
    const outOfRange = await api(`/api/ul/${up.upload_id}/targets`, { method: "POST", bearer, json: { parts: [3] } });
    expect(outOfRange.status).toBe(400);
    expect((await errorOf(outOfRange)).message).toMatch(/вне диапазона/);
    const forged = await api(t1.url.replace(/\/part\/1\?/, "/part/2?"), { method: "PUT", body: data.slice(5 * MiB) });
    expect(forged.status).toBe(403);

    await putParts(bearer, up.upload_id, data, up.part_size, [1]);
    const missing = await api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/Не хватает частей: 2/);
    await putParts(bearer, up.upload_id, data, up.part_size, [2]);
    expect((await api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer })).status).toBe(200);
    const twice = await api(`/api/ul/${up.upload_id}/complete`, { method: "POST", bearer });
    expect(twice.status).toBe(409);

    const old = await api(`/api/asset/content/download/${asset_id}/1/initial`, { bearer });
    expect(await sha256(await old.arrayBuffer())).toBe(await sha256(v1));
  });

  it.each([
    ["name", { name: "../etc/passwd" }],
    ["name", { name: "a\u0000b.mp4" }],
    ["name", { name: "dir\\file.mp4" }],
    ["size", { size: -1 }],
    ["mime", { mime: "not a mime" }],
    ["part_size", { part_size: 1000 }],
    ["part_size", { part_size: 96 * 1000 * 1000 }],
    ["asset_id", { asset_id: "nope" }],
  ])("start answers 400 naming %s", async (field, patch) => {
    const { asset_id } = await createAsset(bearer);
    const res = await startUpload(bearer, { asset_id, size: 10, name: "a.mp4", mime: "video/mp4", ...patch });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details?.map((d) => d.field)).toContain(field);
  });

  it("abort of a new asset's only upload deletes the asset; abort of a later upload keeps it", async () => {
    const { asset_id } = await createAsset(bearer);
    const up = await json(startUpload(bearer, { asset_id, size: 100, name: "a.mp4", mime: "video/mp4" }));
    const aborted = await json(api(`/api/ul/${up.upload_id}`, { method: "DELETE", bearer }));
    expect(aborted).toMatchObject({ state: "aborted", asset_deleted: true });
    expect((await api(`/api/asset/${asset_id}`, { bearer })).status).toBe(404);

    const kept = await createAsset(bearer);
    await uploadFile(bearer, kept.asset_id, randomBytes(100));
    const up2 = await json(startUpload(bearer, { asset_id: kept.asset_id, size: 100, name: "a.mp4", mime: "video/mp4" }));
    expect(await json(api(`/api/ul/${up2.upload_id}`, { method: "DELETE", bearer }))).toMatchObject({ asset_deleted: false });
    expect((await api(`/api/asset/${kept.asset_id}`, { bearer })).status).toBe(200);
    expect((await api(`/api/ul/${up2.upload_id}/complete`, { method: "POST", bearer })).status).toBe(410);
  });
});

describe("who may upload", () => {
  it("create without update: the creator fills the new asset once; later versions and others' assets need update", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const [author, other] = await Promise.all([mkPerson(), mkPerson()]);
    await Promise.all([grant(author.id, group, ["read", "create"]), grant(other.id, group, ["read", "create"])]);
    const { asset_id } = await createAsset(author.bearer, { in_group: group, asset_name: "Новый.bin" });
    const data = randomBytes(1024);
    const start = { asset_id, size: data.length, name: "Новый.bin", mime: "application/octet-stream" };

    expect((await startUpload(other.bearer, start)).status).toBe(403); // not theirs: update needed
    await uploadFile(author.bearer, asset_id, data);
    const again = await startUpload(author.bearer, start);
    expect(again.status).toBe(403); // it has content now: a new version changes it
    expect(await errorOf(again)).toMatchObject({ code: "forbidden" });
  });
});

describe("upload server discovery", () => {
  it("lists the Worker as the upload server; its ping is open; uldl-status records", async () => {
    const servers = await json(api("/api/uldl-list", { bearer }));
    expect(servers).toEqual([{ id: "worker", url: "http://mam.test/api/ul" }]);
    expect((await api("/api/ul/ping")).status).toBe(200);
    expect((await api("/api/uldl-status", { method: "POST", bearer, json: { id: "worker", ping: 12 } })).status).toBe(200);
    expect((await api("/api/uldl-status", { method: "POST", bearer, json: { id: "worker" } })).status).toBe(400);
    const { asset_id } = await createAsset(bearer);
    const prep = await json(api(`/api/asset/version/${asset_id}`, { method: "POST", bearer, json: { variant_type: "initial" } }));
    expect(prep).toMatchObject({ id: "worker", url: "http://mam.test/api/ul", asset_id, variant_type: "initial" });
  });

  it("needs a bearer for every protocol step but the signed part PUT and ping", async () => {
    for (const [method, path] of [
      ["POST", "/api/ul/start"],
      ["GET", `/api/ul/${crypto.randomUUID()}`],
      ["GET", "/api/uldl-list"],
    ]) {
      expect((await api(path, { method })).status).toBe(401);
    }
  });
});
