import { beforeAll, describe, expect, it } from "vitest";
import { accessOf, admin, call, grant, mkGroup, mkPerson, placeAsset, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";

/**
 * Placing never widens (docs/decisions/024-placing-rights-transcoder-quota.md): rights follow the place,
 * so putting an item where the caller holds more must not hand the caller those rights on it; team
 * membership, which hands out a team's rules, is for admins alone.
 */

const post = (path: string, json: unknown, bearer: string) => call(path, { method: "POST", json, bearer });
const insert = (groupId: string, assetId: string, bearer: string) =>
  post("/api/group/insert-members", { group_id: groupId, members: [{ el_id: assetId, el_type: "asset" }] }, bearer);
const move = (from: string, to: string, id: string, type: "asset" | "group", bearer: string) =>
  post("/api/group/move-member", { from, to, el_id: id, el_type: type }, bearer);
const memberIds = async (groupId: string) =>
  ((await call(`/api/group/members/${groupId}?take=200`, { bearer: await admin() })).body as { el_id: string }[]).map((m) => m.el_id);

async function asset(groupId: string) {
  const r = await post("/api/asset/create", { asset_name: uniq("Файл"), asset_mime: "video/mp4", in_group: groupId }, await admin());
  expect(r.status).toBe(200);
  return r.body.asset_id as string;
}

let u: Person;
let a: string;
let b: string;
beforeAll(async () => {
  await admin(); // the first request on an empty database makes the admin
  u = await mkPerson();
  a = await mkGroup(VIRTUAL_ROOT, uniq("Чужая"));
  b = await mkGroup(VIRTUAL_ROOT, uniq("Своя"));
  // Write on A (where the files are), superuser on B (a group this user manages).
  await grant(u.id, a, ["read", "update", "group"]);
  await grant(u.id, b, ["superuser"]);
});

describe("placing an asset", () => {
  it("refuses to insert a file one may only read into a group where one is superuser", async () => {
    const c = await mkGroup(VIRTUAL_ROOT, uniq("Библиотека"));
    await grant(u.id, c, ["read"]);
    const x = await asset(c);
    const r = await insert(b, x, u.bearer);
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/Нельзя поместить «Файл-.*» в эту группу: там у вас появились бы права «update», «delete»/);
    expect(await memberIds(b)).not.toContain(x);
    expect(await accessOf(x, u.bearer)).toEqual(["read"]);
  });

  it("refuses to insert a file one may write into a group where one would get more", async () => {
    const x = await asset(a);
    expect((await insert(b, x, u.bearer)).status).toBe(403);
    expect(await accessOf(x, u.bearer)).toEqual(["read", "update", "group"]);
  });

  it("refuses a move that would widen, and changes nothing", async () => {
    const x = await asset(a);
    const r = await move(a, b, x, "asset", u.bearer);
    expect(r.status).toBe(403);
    expect(await memberIds(a)).toContain(x);
    expect(await memberIds(b)).not.toContain(x);
  });

  it("allows re-filing between places that give the same rights, and anything for a superuser of the item", async () => {
    const shelf1 = await mkGroup(a, "Полка 1");
    const shelf2 = await mkGroup(a, "Полка 2");
    const x = await asset(shelf1);
    expect((await move(shelf1, shelf2, x, "asset", u.bearer)).status).toBe(200);
    expect((await insert(shelf1, x, u.bearer)).status).toBe(200);
    expect(await memberIds(shelf2)).toContain(x);
    // Out of the managed group into the write-only one: the caller gets nothing new on it.
    const mine = await asset(b);
    expect((await move(b, a, mine, "asset", u.bearer)).status).toBe(200);
    expect(await accessOf(mine, u.bearer)).toEqual(["read", "update", "group"]);
  });

  it("lets a group manager move files and folders around their own subtree", async () => {
    const from = await mkGroup(b, "Входящие");
    const to = await mkGroup(b, "Готово");
    const x = await asset(from);
    const folder = await mkGroup(from, "Съёмка");
    expect((await move(from, to, x, "asset", u.bearer)).status).toBe(200);
    expect((await move(from, to, folder, "group", u.bearer)).status).toBe(200);
    expect(await memberIds(to)).toEqual(expect.arrayContaining([x, folder]));
  });

  it("judges by the caller's own rights only: an asset rule of its own counts as having them", async () => {
    const c = await mkGroup(VIRTUAL_ROOT, uniq("Библиотека"));
    await grant(u.id, c, ["read"]);
    const x = await placeAsset(c);
    await grant(u.id, x, ["superuser"], "user", "asset");
    expect((await insert(b, x, u.bearer)).status).toBe(200);
  });
});

describe("moving a group", () => {
  it("refuses to move a group into a place where the caller would get more on its subtree", async () => {
    const g = await mkGroup(a, uniq("Папка"));
    const deep = await mkGroup(g, "Глубже");
    const r = await move(a, b, g, "group", u.bearer);
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/«Папка-.*»/);
    expect(await memberIds(a)).toContain(g);
    expect(await accessOf(deep, u.bearer)).toEqual(["read", "update", "group"]);
  });

  it("takes the group's own rules along: superuser on the group itself allows the move", async () => {
    const g = await mkGroup(a, uniq("Папка"));
    await grant(u.id, g, ["superuser"]);
    expect((await move(a, b, g, "group", u.bearer)).status).toBe(200);
    expect(await memberIds(b)).toContain(g);
  });
});

describe("team membership", () => {
  it("is changed by admins only, even a team's superuser is refused", async () => {
    const team = await mkGroup(b, uniq("Команда"));
    const other = await mkPerson();
    const body = { group_id: team, members: [{ el_id: other.id, el_type: "user" }] };
    for (const path of ["/api/group/insert-members", "/api/group/delete-members"]) {
      const r = await post(path, body, u.bearer);
      expect(r.status).toBe(403);
      expect(r.body.error.message).toMatch(/только администраторы/);
    }
    expect((await call(`/api/user?group=${team}`, { bearer: await admin() })).body).toEqual([]);
    expect((await post("/api/group/insert-members", body, await admin())).status).toBe(200);
    expect(
      (await post("/api/group/delete-members", { group_id: team, members: [{ el_id: u.id, el_type: "user" }] }, u.bearer)).status,
    ).toBe(403);
  });

  it("a user cannot enrol themself into a team that holds more rights", async () => {
    const team = await mkGroup(b, uniq("Команда"));
    const vault = await mkGroup(VIRTUAL_ROOT, uniq("Сейф"));
    await grant(team, vault, ["read", "download"], "group");
    const r = await post("/api/group/insert-members", { group_id: team, members: [{ el_id: u.id, el_type: "user" }] }, u.bearer);
    expect(r.status).toBe(403);
    expect(await accessOf(vault, u.bearer)).toBe(404);
  });
});
