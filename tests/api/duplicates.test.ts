import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { variants } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { addVersion, finishMetadata, fingerprinted, flip, randomHash, randomSha } from "./duplicates.helpers";
import { mkMediaAsset } from "./tasks.helpers";

/**
 * Exact duplicates and look-alikes (docs/decisions/058-duplicates-and-look-alikes.md): the transcoder's SHA-256 and
 * perceptual hashes arrive with the metadata task's result; the answers name only what the caller can read.
 */

let adminId: string;
let groupA: string;
let groupB: string;
let onlyA: Person;
let both: Person;

beforeAll(async () => {
  adminId = (await call("/api/auth/whoami", { bearer: await admin() })).body.id;
  const top = await mkGroup(VIRTUAL_ROOT, uniq("Дубликаты"));
  groupA = await mkGroup(top, uniq("Фото"));
  groupB = await mkGroup(top, uniq("Архив"));
  onlyA = await mkPerson();
  both = await mkPerson();
  await grant(onlyA.id, groupA, ["read"]);
  await grant(both.id, groupA, ["read"]);
  await grant(both.id, groupB, ["read"]);
});

const of = (id: string, bearer: string) => call(`/api/duplicates/of/${id}`, { bearer });
const similar = (json: Record<string, unknown>, bearer: string) => call("/api/search/similar", { method: "POST", json, bearer });

describe("GET /api/duplicates/of/{asset_id}", () => {
  it("two uploads of the same bytes in different groups find each other only for a user who can read both", async () => {
    const sha256 = randomSha();
    const a = await fingerprinted(groupA, adminId, { sha256 }, { name: "Закат.mp4" });
    const b = await fingerprinted(groupB, adminId, { sha256 }, { name: "Закат (копия).mp4" });

    const seen = await of(a.assetId, both.bearer);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ known: true, sha256 });
    expect(seen.body.items).toHaveLength(1);
    expect(seen.body.items[0]).toMatchObject({ id: b.assetId, name: "Закат (копия).mp4", groups: [{ group_id: groupB }] });
    // The path names only groups the caller can read: the top group above B is not one of them, for an admin it is.
    expect(seen.body.items[0].groups[0].path).toMatch(/^\/Архив-[^/]*$/);
    expect((await of(a.assetId, await admin())).body.items[0].groups[0].path).toMatch(/^\/Дубликаты-[^/]*\/Архив-[^/]*$/);
    expect((await of(b.assetId, both.bearer)).body.items.map((i: { id: string }) => i.id)).toEqual([a.assetId]);

    // The reader of A alone learns nothing of the copy in B: the answer is the same as for a unique file.
    const hidden = await of(a.assetId, onlyA.bearer);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual({ known: true, sha256, items: [] });
    expect(hidden.text).not.toContain(b.assetId);
    expect((await of(b.assetId, onlyA.bearer)).status).toBe(404);
  });

  it("uses the hash the transcoder measured, never the client's claim", async () => {
    const claimed = randomSha();
    const measured = randomSha();
    const twin = await fingerprinted(groupA, adminId, { sha256: claimed });
    const a = await mkMediaAsset(groupA, adminId);
    await db().update(variants).set({ sha256: claimed }).where(eq(variants.variantId, a.variantId));
    // Until the transcoder reports, nothing is known, whatever the client said.
    expect((await of(a.assetId, both.bearer)).body).toEqual({ known: false, sha256: null, items: [] });
    await finishMetadata(a, { sha256: measured });
    const r = await of(a.assetId, both.bearer);
    expect(r.body).toMatchObject({ known: true, sha256: measured, items: [] });
    expect(r.text).not.toContain(twin.assetId);
  });

  it("compares the latest version: a new version with other bytes leaves the set", async () => {
    const sha256 = randomSha();
    const a = await fingerprinted(groupA, adminId, { sha256 });
    const b = await fingerprinted(groupA, adminId, { sha256 });
    expect((await of(a.assetId, both.bearer)).body.items.map((i: { id: string }) => i.id)).toEqual([b.assetId]);
    const v2 = await addVersion(b.assetId, adminId, b);
    expect((await of(b.assetId, both.bearer)).body.known).toBe(false);
    await finishMetadata(v2, { sha256: randomSha() });
    expect((await of(a.assetId, both.bearer)).body.items).toEqual([]);
  });

  it("answers 404 for a missing asset, 400 for a malformed id, 401 without a token", async () => {
    expect((await of(crypto.randomUUID(), both.bearer)).status).toBe(404);
    const bad = await of("not-an-id", both.bearer);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("asset_id");
    expect((await call(`/api/duplicates/of/${crypto.randomUUID()}`)).status).toBe(401);
  });
});

describe("GET /api/duplicates", () => {
  it("lists sets of identical originals the caller can read, with the bytes removing the copies would free", async () => {
    const sha256 = randomSha();
    const a = await fingerprinted(groupA, adminId, { sha256 });
    const b = await fingerprinted(groupB, adminId, { sha256 });
    const c = await fingerprinted(groupB, adminId, { sha256 });
    const size = (await db().select().from(variants).where(eq(variants.variantId, a.variantId)).get())!.contentSize;

    const setOf = async (bearer: string) => {
      const r = await call("/api/duplicates?take=100", { bearer });
      expect(r.status, r.text).toBe(200);
      return { body: r.body, set: r.body.items.find((s: { sha256: string }) => s.sha256 === sha256) };
    };
    const forBoth = await setOf(both.bearer);
    expect(forBoth.set).toMatchObject({ count: 3, size, freed: 2 * size });
    expect(forBoth.set.assets.map((x: { id: string }) => x.id).sort()).toEqual([a.assetId, b.assetId, c.assetId].sort());
    expect(forBoth.body.freed_total).toBeGreaterThanOrEqual(2 * size);
    // Admins see every set; the reader of A sees one copy only, so no set.
    expect((await setOf(await admin())).set).toMatchObject({ count: 3 });
    expect((await setOf(onlyA.bearer)).set).toBeUndefined();
  });

  it("pages with skip and take, and names a bad parameter", async () => {
    const first = await call("/api/duplicates?take=1", { bearer: await admin() });
    expect(first.body.items.length).toBeLessThanOrEqual(1);
    const past = await call(`/api/duplicates?skip=${first.body.total}&take=5`, { bearer: await admin() });
    expect(past.body).toMatchObject({ total: first.body.total, items: [] });
    for (const q of ["take=0", "take=101", "skip=-1", "near=maybe", "near=true&max_distance=65"]) {
      const r = await call(`/api/duplicates?${q}`, { bearer: both.bearer });
      expect(r.status, q).toBe(400);
      expect(r.text, q).toContain(q.split("=").at(-2)!.split("&").at(-1)!);
    }
  });

  it("near=true groups look-alikes: images by dHash, two encodes of one clip by their scene hashes", async () => {
    const base = randomHash();
    const p = await fingerprinted(groupA, adminId, { sha256: randomSha(), dhash: base, phash: randomHash() }, { mime: "image/png" });
    const q = await fingerprinted(
      groupB,
      adminId,
      { sha256: randomSha(), dhash: flip(base, 3), phash: randomHash() },
      { mime: "image/jpeg" },
    );
    const scenes = [randomHash(), randomHash(), randomHash()];
    const v1 = await fingerprinted(groupA, adminId, { sha256: randomSha(), scene_hashes: scenes });
    const v2 = await fingerprinted(groupA, adminId, { sha256: randomSha(), scene_hashes: scenes.map((h) => flip(h, 2)) });
    const other = await fingerprinted(groupA, adminId, { sha256: randomSha(), scene_hashes: [scenes[0], randomHash(), randomHash()] });

    const r = await call("/api/duplicates?near=true&max_distance=6&take=100", { bearer: both.bearer });
    expect(r.status, r.text).toBe(200);
    const setWith = (id: string) => r.body.items.find((s: { assets: { id: string }[] }) => s.assets.some((x) => x.id === id));
    expect(
      setWith(p.assetId)
        .assets.map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual([p.assetId, q.assetId].sort());
    expect(setWith(p.assetId).max_distance).toBe(3);
    expect(
      setWith(v1.assetId)
        .assets.map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual([v1.assetId, v2.assetId].sort());
    expect(setWith(other.assetId)).toBeUndefined();
    // The reader of A does not see q (in B), so p stands alone.
    const forA = await call("/api/duplicates?near=true&max_distance=6&take=100", { bearer: onlyA.bearer });
    expect(forA.text).not.toContain(q.assetId);
  });
});

describe("POST /api/search/similar", () => {
  it("orders readable look-alikes by Hamming distance, leaves out the asset itself, and is exact beyond the index radius", async () => {
    const base = randomHash();
    const like = await fingerprinted(
      groupA,
      adminId,
      { sha256: randomSha(), dhash: base, phash: randomHash() },
      { mime: "image/png", name: "Оригинал.png" },
    );
    const near = await fingerprinted(
      groupA,
      adminId,
      { sha256: randomSha(), dhash: flip(base, 2) },
      { mime: "image/jpeg", name: "Уменьшенный.jpg" },
    );
    const mid = await fingerprinted(
      groupA,
      adminId,
      { sha256: randomSha(), dhash: flip(base, 7) },
      { mime: "image/jpeg", name: "Пережатый.jpg" },
    );
    const far = await fingerprinted(
      groupA,
      adminId,
      { sha256: randomSha(), dhash: flip(base, 12) },
      { mime: "image/jpeg", name: "Другой.jpg" },
    );
    const hidden = await fingerprinted(groupB, adminId, { sha256: randomSha(), dhash: flip(base, 1) }, { mime: "image/jpeg" });

    const r = await similar({ like: like.assetId }, onlyA.bearer);
    expect(r.status, r.text).toBe(200);
    expect(r.body.map((i: { el_id: string; distance: number }) => [i.el_id, i.distance])).toEqual([
      [near.assetId, 2],
      [mid.assetId, 7],
    ]);
    expect(r.body[0]).toMatchObject({ el_type: "asset", name: "Уменьшенный.jpg", mime: "image/jpeg" });
    expect(r.text).not.toContain(hidden.assetId);
    expect(r.text).not.toContain(far.assetId);
    // A reader of both gets the closer copy in B first.
    expect((await similar({ like: like.assetId }, both.bearer)).body[0]).toMatchObject({ el_id: hidden.assetId, distance: 1 });
    // Beyond the bands' certain radius the answer comes from a scan, still exact.
    const wide = await similar({ like: like.assetId, max_distance: 12 }, onlyA.bearer);
    expect(wide.body.map((i: { el_id: string }) => i.el_id)).toEqual([near.assetId, mid.assetId, far.assetId]);
    const narrow = await similar({ like: like.assetId, max_distance: 2, take: 5 }, onlyA.bearer);
    expect(narrow.body.map((i: { el_id: string }) => i.el_id)).toEqual([near.assetId]);
    expect((await similar({ like: like.assetId, max_distance: 12, take: 1 }, onlyA.bearer)).body).toHaveLength(1);
  });

  it("finds copies whose differing bits fall in every band, within the default distance, ties by name", async () => {
    // Bits flipped `perBand` at a time in each of the three index bands (21, 21, 22 bits), from `offset` on: no band
    // is left equal, so only the probes around each band value find them.
    const spread = (hash: string, perBand: number[], offset: number) => {
      let v = BigInt(`0x${hash}`);
      perBand.forEach((n, band) => {
        for (let k = 0; k < n; k++) v ^= 1n << BigInt(63 - ([0, 21, 42][band] + offset + k));
      });
      return v.toString(16).padStart(16, "0");
    };
    const base = randomHash();
    const like = await fingerprinted(groupA, adminId, { sha256: randomSha(), dhash: base }, { mime: "image/png", name: "Исходник.png" });
    const at = (perBand: number[], offset: number, name: string) =>
      fingerprinted(groupA, adminId, { sha256: randomSha(), dhash: spread(base, perBand, offset) }, { mime: "image/jpeg", name });
    const second = await at([3, 3, 3], 0, "Первая копия.jpg");
    const first = await at([3, 3, 3], 5, "Вторая копия.jpg");
    const ten = await at([4, 3, 3], 10, "Пережатая.jpg");
    const eleven = await at([4, 4, 3], 15, "Уменьшенная.jpg");
    const ids = (r: { body: { el_id: string }[] }) => r.body.map((i) => i.el_id);

    const byDefault = await similar({ like: like.assetId }, onlyA.bearer);
    expect(byDefault.body.map((i: { el_id: string; distance: number }) => [i.el_id, i.distance])).toEqual([
      [first.assetId, 9],
      [second.assetId, 9],
      [ten.assetId, 10],
    ]);
    expect(ids(await similar({ like: like.assetId, max_distance: 11 }, onlyA.bearer))).toEqual([
      first.assetId,
      second.assetId,
      ten.assetId,
      eleven.assetId,
    ]);
    expect(ids(await similar({ like: like.assetId, take: 1 }, onlyA.bearer))).toEqual([first.assetId]);
    expect((await similar({ like: like.assetId, max_distance: 8 }, onlyA.bearer)).body).toEqual([]);
  });

  it("answers 404 for an unreadable or missing like, 400 naming a bad field, [] for an asset without a fingerprint", async () => {
    const hidden = await fingerprinted(groupB, adminId, { sha256: randomSha(), dhash: randomHash() }, { mime: "image/png" });
    expect((await similar({ like: hidden.assetId }, onlyA.bearer)).status).toBe(404);
    expect((await similar({ like: crypto.randomUUID() }, onlyA.bearer)).status).toBe(404);
    for (const [json, field] of [
      [{}, "like"],
      [{ like: hidden.assetId, max_distance: 65 }, "max_distance"],
      [{ like: hidden.assetId, take: 0 }, "take"],
    ] as const) {
      const r = await similar(json, both.bearer);
      expect(r.status).toBe(400);
      expect(r.text).toContain(field);
    }
    const plain = await mkMediaAsset(groupA, adminId);
    expect((await similar({ like: plain.assetId }, onlyA.bearer)).body).toEqual([]);
    expect((await call("/api/search/similar", { method: "POST", json: { like: plain.assetId } })).status).toBe(401);
  });
});

describe("POST /api/duplicates/{asset_id}/as-version-of/{target_id}", () => {
  const merge = (copy: string, target: string, bearer: string) =>
    call(`/api/duplicates/${copy}/as-version-of/${target}`, { method: "POST", bearer });

  it("makes the uploaded copy the target's next version, bytes and fingerprints included, and deletes the copy", async () => {
    const sha256 = randomSha();
    const target = await fingerprinted(groupA, adminId, { sha256 });
    const copy = await fingerprinted(groupB, adminId, { sha256 });
    const r = await merge(copy.assetId, target.assetId, await admin());
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ asset_id: target.assetId, version: 2 });
    expect((await call(`/api/asset/${copy.assetId}`, { bearer: await admin() })).status).toBe(404);
    const moved = (await db().select().from(variants).where(eq(variants.variantId, copy.variantId)).get())!;
    expect([moved.assetId, moved.version]).toEqual([target.assetId, 2]);
    // The new version is the latest, hashed already: the copy's hash came along.
    expect((await of(target.assetId, both.bearer)).body).toEqual({ known: true, sha256, items: [] });
  });

  it("a copy with older versions: the latest moves, and the older versions' bytes and previews leave storage", async () => {
    const target = await fingerprinted(groupA, adminId, { sha256: randomSha() });
    const copy = await fingerprinted(groupB, adminId, { sha256: randomSha() });
    const first = (await db().select().from(variants).where(eq(variants.variantId, copy.variantId)).get())!;
    const previewKey = `previews/${copy.variantId}`;
    await env.BUCKET.put(previewKey, new Uint8Array([0xff, 0xd8, 0xff]));
    await db().update(variants).set({ previewKey, previewStorageId: first.storageId }).where(eq(variants.variantId, copy.variantId));
    // Version 2 with bytes of its own: the one that becomes the target's next version.
    const v2 = await addVersion(copy.assetId, adminId, copy);
    const v2Key = `assets/${copy.assetId}/${v2.variantId}`;
    await env.BUCKET.put(v2Key, new TextEncoder().encode("the second version"));
    await db().update(variants).set({ objectKey: v2Key, previewKey: null }).where(eq(variants.variantId, v2.variantId));

    const r = await merge(copy.assetId, target.assetId, await admin());
    expect(r.status, r.text).toBe(200);
    expect((await db().select().from(variants).where(eq(variants.variantId, v2.variantId)).get())?.assetId).toBe(target.assetId);
    expect(await env.BUCKET.head(v2Key)).not.toBeNull();
    expect([await env.BUCKET.head(first.objectKey), await env.BUCKET.head(previewKey)]).toEqual([null, null]);
  });

  it("needs update on the target and delete on the copy: a reader gets 403 and nothing moves", async () => {
    const editor = await mkPerson();
    await grant(editor.id, groupA, ["read", "update", "delete"]);
    await grant(editor.id, groupB, ["read"]);
    const sha256 = randomSha();
    const inA = await fingerprinted(groupA, adminId, { sha256 });
    const inB = await fingerprinted(groupB, adminId, { sha256 });
    expect((await merge(inB.assetId, inA.assetId, editor.bearer)).status).toBe(403);
    expect((await merge(inA.assetId, inB.assetId, editor.bearer)).status).toBe(403);
    expect((await merge(inA.assetId, inB.assetId, onlyA.bearer)).status).toBe(404);
    expect((await db().select().from(variants).where(eq(variants.variantId, inB.variantId)).get())?.assetId).toBe(inB.assetId);
    const self = await merge(inA.assetId, inA.assetId, await admin());
    expect(self.status).toBe(400);
    expect(self.text).toContain("target_id");
  });
});
