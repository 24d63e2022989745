import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { randomBytes, uploadFile } from "./uploads.helpers";

/** Assets as group members: members/{id}, dir, entity-by-path, group-size and rule names. */

let bearer: string;
let root: string;
let group: string;
let clip: { id: string; variant: string };
let assetIds: string[];
let reader: Person;
let outsider: Person;

const get = (path: string, as = bearer) => call(path, { bearer: as });
const q = encodeURIComponent;

beforeAll(async () => {
  bearer = await admin();
  root = await mkGroup(VIRTUAL_ROOT, uniq("Архив"));
  group = await mkGroup(root, "Съёмки");
  for (const name of ["Б-подгруппа", "А-подгруппа", "В-подгруппа"]) await mkGroup(group, name);
  const created = await call("/api/asset/create-list", {
    method: "POST",
    bearer,
    json: {
      assets: Array.from({ length: 60 }, (_, i) => ({
        asset_name: `Кадр ${String(i).padStart(2, "0")}.jpg`,
        asset_mime: "image/jpeg",
        in_group: group,
      })),
    },
  });
  expect(created.status).toBe(200);
  assetIds = created.body.map((a: { asset_id: string }) => a.asset_id);
  const c = await call("/api/asset/create", {
    method: "POST",
    bearer,
    json: { asset_name: "Интервью.mp4", asset_mime: "video/mp4", in_group: group },
  });
  const { done } = await uploadFile(bearer, c.body.asset_id, randomBytes(777), { mime: "video/mp4", name: "Интервью.mp4" });
  clip = { id: c.body.asset_id, variant: done.variant_id };
  reader = await mkPerson();
  outsider = await mkPerson();
  await grant(reader.id, root, ["read"]);
});

describe("members/{id} with assets", () => {
  it("lists subgroups by name, then assets with their latest version", async () => {
    const r = await get(`/api/group/members/${group}?take=100`);
    expect(r.status).toBe(200);
    expect(r.body.slice(0, 3).map((m: { el_info: { name: string } }) => m.el_info.name)).toEqual([
      "А-подгруппа",
      "Б-подгруппа",
      "В-подгруппа",
    ]);
    expect(r.body.find((m: { el_id: string }) => m.el_id === assetIds[0])).toEqual({
      el_id: assetIds[0],
      el_type: "asset",
      el_info: { name: "Кадр 00.jpg", mimetype: "image/jpeg", ctime: expect.any(Number), ver: null, var: null, var_size: null },
    });
    const video = await get(`/api/group/members/${group}?type=asset&filters=${q("интервью")}`);
    expect(video.body).toEqual([
      {
        el_id: clip.id,
        el_type: "asset",
        el_info: { name: "Интервью.mp4", mimetype: "video/mp4", ctime: expect.any(Number), ver: 1, var: clip.variant, var_size: 777 },
      },
    ]);
    expect((await get(`/api/group/members/${group}?type=group`)).body).toHaveLength(3);
    expect((await get(`/api/group/members/${group}?filters=${q("кадр 5")}`)).body).toHaveLength(10);
  });

  it("pages 50 at a time across subgroups and assets; the last page is short", async () => {
    const all: string[] = [];
    for (let skip = 0; ; skip += 50) {
      const page = (await get(`/api/group/members/${group}?skip=${skip}&take=50`)).body as { el_id: string }[];
      all.push(...page.map((m) => m.el_id));
      if (page.length < 50) {
        expect(page).toHaveLength(14); // 3 groups + 61 assets = 64: 50 + 14
        break;
      }
    }
    expect(all).toHaveLength(64);
    expect(new Set(all).size).toBe(64);
    // Assets in the order they were added: (ctime, id).
    expect(new Set(all.slice(3))).toEqual(new Set([...assetIds, clip.id]));
    const assetsOnly = (await get(`/api/group/members/${group}?type=asset&skip=50&take=50`)).body;
    expect(assetsOnly.map((m: { el_id: string }) => m.el_id)).toEqual(all.slice(53));
    const order = (await get(`/api/group/members/${group}?type=asset&take=100`)).body.map(
      (m: { el_id: string; el_info: { ctime: number } }) => [m.el_info.ctime, m.el_id],
    );
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)));
  });

  it("a caller without read sees neither the asset nor its count", async () => {
    const denied = assetIds[0];
    await grant(reader.id, denied, ["deny"], "user", "asset");
    const page = await get(`/api/group/members/${group}?type=asset&take=200`, reader.bearer);
    expect(page.body).toHaveLength(60);
    expect(page.text).not.toContain(denied);
    expect(page.text).not.toContain("Кадр 00.jpg");
    expect((await get(`/api/group/group-size/${group}`, reader.bearer)).body).toMatchObject({ assets: 60 });
    expect((await get(`/api/group/group-size/${group}`)).body).toMatchObject({ assets: 61 });
    const path = `/${(await get(`/api/group/get/${root}`)).body.group_name}/Съёмки/Кадр 00.jpg`;
    expect((await get(`/api/group/entity-by-path?path=${q(path)}`, reader.bearer)).status).toBe(404);
    for (const p of [`/api/group/members/${group}`, `/api/group/group-size/${group}`, `/api/group/dir?path=${q(path)}`]) {
      const r = await get(p, outsider.bearer);
      expect(r.status).toBe(404);
      expect(r.text).not.toContain("Кадр");
    }
  });
});

describe("members/{id} read from either end", () => {
  it("pages near the end agree with one long page for a caller with denies, after adds, moves and removals", async () => {
    const box = await mkGroup(root, uniq("Лента"));
    const closed = await mkGroup(root, uniq("Закрыто"));
    const elsewhere = await mkGroup(root, uniq("Другое"));
    await mkGroup(box, "Подгруппа");
    const made = await call("/api/asset/create-list", {
      method: "POST",
      bearer,
      json: { assets: Array.from({ length: 14 }, (_, i) => ({ asset_name: `Лист ${i}.png`, asset_mime: "image/png", in_group: box })) },
    });
    const ids = made.body.map((a: { asset_id: string }) => a.asset_id) as string[];
    const viewer = await mkPerson();
    await grant(viewer.id, root, ["read"]);
    await grant(viewer.id, closed, ["deny"]);
    await grant(viewer.id, ids[3], ["deny"], "user", "asset");
    // ids[9] is also placed in a group the viewer is denied: denied here too.
    expect(
      (
        await call("/api/group/insert-members", {
          method: "POST",
          bearer,
          json: { group_id: closed, members: [{ el_id: ids[9], el_type: "asset" }] },
        })
      ).status,
    ).toBe(200);
    const check = async (expected: number) => {
      for (const query of ["", "order=desc", "sort=name", "type=asset&order=desc"]) {
        const whole = (await get(`/api/group/members/${box}?take=200&${query}`, viewer.bearer)).body.map((m: { el_id: string }) => m.el_id);
        expect(whole).toHaveLength(expected + (query.includes("type=asset") ? 0 : 1));
        const paged: string[] = [];
        for (let skip = 0; skip <= whole.length; skip += 3) {
          paged.push(
            ...(await get(`/api/group/members/${box}?skip=${skip}&take=3&${query}`, viewer.bearer)).body.map(
              (m: { el_id: string }) => m.el_id,
            ),
          );
        }
        expect(paged).toEqual(whole);
      }
    };
    await check(12);
    expect(
      (
        await call("/api/group/move-members", {
          method: "POST",
          bearer,
          json: {
            from: box,
            to: elsewhere,
            members: [
              { el_id: ids[0], el_type: "asset" },
              { el_id: ids[1], el_type: "asset" },
            ],
          },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call("/api/group/delete-members", {
          method: "POST",
          bearer,
          json: { group_id: box, members: [{ el_id: ids[13], el_type: "asset" }] },
        })
      ).status,
    ).toBe(200);
    expect((await call("/api/asset/delete-list", { method: "POST", bearer, json: { ids: [ids[5]] } })).status).toBe(200);
    expect(
      (
        await call("/api/asset/create", {
          method: "POST",
          bearer,
          json: { asset_name: "Новый.png", asset_mime: "image/png", in_group: box },
        })
      ).status,
    ).toBe(200);
    await check(9);
  });
});

describe("paths and rules name assets", () => {
  it("resolves an asset as the last segment and lists it as a directory entry", async () => {
    const top = (await get(`/api/group/get/${root}`)).body.group_name as string;
    const byPath = await get(`/api/group/entity-by-path?path=${q(`/${top}/Съёмки/ИНТЕРВЬЮ.mp4`)}`, reader.bearer);
    expect(byPath.body).toEqual({ el_id: clip.id, el_type: "asset", name: "Интервью.mp4" });
    expect((await get(`/api/group/entity-by-path?path=${q(`/${top}/Съёмки/нет.mp4/дальше`)}`)).status).toBe(404);
    const listing = await get(`/api/group/dir?path=${q(`/${top}/Съёмки`)}`, reader.bearer);
    expect(listing.body).toHaveLength(63); // 3 groups + 60 readable assets (one is denied to the reader)
    expect(listing.body.find((e: { id: string }) => e.id === clip.id)).toEqual({
      id: clip.id,
      type: "asset",
      name: "Интервью.mp4",
      ctime: expect.any(Number),
      mtime: expect.any(Number),
      atime: expect.any(Number),
      mime: "video/mp4",
      size: 777,
      ver: 1,
      var: clip.variant,
      var_hash: expect.any(String),
    });
    const one = await get(`/api/group/dir?path=${q(`/${top}/Съёмки/Интервью.mp4`)}`, reader.bearer);
    expect(one.body).toHaveLength(1);
    expect(one.body[0].id).toBe(clip.id);
  });

  it("names an asset rule's object", async () => {
    const ruleId = await grant(outsider.id, clip.id, ["read"], "user", "asset");
    expect((await get(`/api/user/acl/${ruleId}`)).body).toMatchObject({ obj_id: clip.id, obj_type: "asset", obj_name: "Интервью.mp4" });
  });
});
