import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { admin, call, db, grant, mkGroup, mkPerson, placeAsset, uniq, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";

/** /api/group: happy paths, validation and the engine's answers on each route. */

const post = async (path: string, json: unknown, bearer?: string) =>
  call(path, { method: "POST", json, bearer: bearer ?? (await admin()) });
const get = async (path: string, bearer?: string) => call(path, { bearer: bearer ?? (await admin()) });
const names = (rows: { el_info?: { name: string }; group_name?: string }[]) => rows.map((r) => r.el_info?.name ?? r.group_name);

describe("create, get, update", () => {
  it("creates top-level and nested groups, with events", async () => {
    const name = uniq("Проект");
    const r = await post("/api/group/create", { group_name: name, parent: VIRTUAL_ROOT });
    expect(r.status).toBe(200);
    const child = await mkGroup(r.body.group_id, "Видео");
    const g = await get(`/api/group/get/${child}`);
    expect(g.body).toMatchObject({
      group_id: child,
      group_name: "Видео",
      parent_id: r.body.group_id,
      acl: expect.arrayContaining(["superuser"]),
    });
    expect((await get("/api/group/roots")).body.map((x: { group_id: string }) => x.group_id)).toContain(r.body.group_id);
  });

  it.each([
    ["group_name", { parent: VIRTUAL_ROOT }],
    ["parent", { group_name: "x" }],
    ["group_name", { parent: VIRTUAL_ROOT, group_name: "  " }],
    ["group_name", { parent: VIRTUAL_ROOT, group_name: "a/b" }],
    ["parent", { parent: "not-an-id", group_name: "x" }],
  ])("answers 400 naming %s", async (field, json) => {
    const r = await post("/api/group/create", json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("forbids duplicate sibling names case-insensitively, Cyrillic included, and changes nothing", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    await mkGroup(root, "Съёмка");
    const clash = await post("/api/group/create", { parent: root, group_name: "СЪЁМКА" });
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toMatch(/уже есть/);
    expect((await get(`/api/group/members/${root}`)).body).toHaveLength(1);
    const other = await mkGroup(root, "Другое");
    expect(
      (await call(`/api/group/update/${other}`, { method: "PATCH", json: { group_name: "съёмка" }, bearer: await admin() })).status,
    ).toBe(409);
  });

  it("answers 404 for an unknown parent, 403 for a top-level group by a non-admin", async () => {
    const r = await post("/api/group/create", { parent: crypto.randomUUID(), group_name: "x" });
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("Родительская группа не найдена");
    const u = await mkPerson();
    expect((await post("/api/group/create", { parent: VIRTUAL_ROOT, group_name: uniq() }, u.bearer)).status).toBe(403);
  });

  it("needs create on the parent and update on the group", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const u = await mkPerson();
    await grant(u.id, root, ["read", "update"]);
    expect((await post("/api/group/create", { parent: root, group_name: "x" }, u.bearer)).status).toBe(403);
    await grant(u.id, await mkGroup(root), ["create"]);
    const r = await call(`/api/group/update/${root}`, { method: "PATCH", json: { group_name: uniq("Новое") }, bearer: u.bearer });
    expect(r.status).toBe(200);
    expect((await call(`/api/group/update/${root}`, { method: "PATCH", json: {}, bearer: u.bearer })).status).toBe(400);
  });
});

describe("members and paging", () => {
  it("pages children by name, 50 at a time; the last page is short", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    for (let i = 0; i < 60; i++) await mkGroup(root, `п${String(i).padStart(2, "0")}`);
    const first = await get(`/api/group/members/${root}`);
    expect(first.body).toHaveLength(50);
    expect(first.body[0]).toEqual({
      el_id: expect.any(String),
      el_type: "group",
      el_info: { name: "п00", mimetype: null, ctime: expect.any(Number), ver: null, var: null, var_size: null },
    });
    const last = await get(`/api/group/members/${root}?skip=50&take=50`);
    expect(names(last.body)).toEqual(Array.from({ length: 10 }, (_, i) => `п${50 + i}`));
    expect((await get(`/api/group/members/${root}?filters=П5&type=group`)).body).toHaveLength(10);
    expect((await get(`/api/group/members/${root}?type=asset`)).body).toEqual([]);
    expect((await get(`/api/group/members/${root}?take=500`)).status).toBe(400);
    expect((await get(`/api/group/members/${root}?type=video`)).status).toBe(400);
  });

  it("hides denied children from a reader", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const open = await mkGroup(root, "Открыто");
    const closed = await mkGroup(root, "Закрыто");
    const u = await mkPerson();
    await grant(u.id, root, ["read"]);
    await grant(u.id, closed, ["deny"]);
    const r = await get(`/api/group/members/${root}`, u.bearer);
    expect(r.body.map((m: { el_id: string }) => m.el_id)).toEqual([open]);
    expect(r.text).not.toContain("Закрыто");
    expect((await get(`/api/group/group-size/${root}`, u.bearer)).body).toMatchObject({ groups: 1 });
  });

  it("adds and removes team members (admins only) and assets (group needed)", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const u = await mkPerson();
    const r = await post("/api/group/insert-members", { group_id: root, members: [{ el_id: u.id, el_type: "user" }] });
    expect(r.status).toBe(200);
    expect((await get(`/api/user/membership/${u.id}`)).body.map((t: { group_id: string }) => t.group_id)).toEqual([root]);
    expect((await get("/api/group/groups-with-users")).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ group_id: root, users: 1 })]),
    );
    const editor = await mkPerson();
    await grant(editor.id, root, ["read", "update"]);
    const denied = await post(
      "/api/group/insert-members",
      { group_id: root, members: [{ el_id: editor.id, el_type: "user" }] },
      editor.bearer,
    );
    expect(denied.status).toBe(403);
    const unknown = await post("/api/group/insert-members", { group_id: root, members: [{ el_id: crypto.randomUUID(), el_type: "user" }] });
    expect(unknown.status).toBe(404);
    const bad = await post("/api/group/insert-members", { group_id: root, members: [{ el_id: u.id, el_type: "robot" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("members.0.el_type");
  });
});

describe("moving", () => {
  it("refuses a move under the group's own descendant, a name clash and an unknown target, changing nothing", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const a = await mkGroup(root, "А");
    const b = await mkGroup(a, "Б");
    const c = await mkGroup(root, "Б-нет");
    await mkGroup(c, "А");
    const cycle = await post("/api/group/move-member", { el_id: a, el_type: "group", from: root, to: b });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toMatch(/внутрь неё самой/);
    const self = await post("/api/group/move-member", { el_id: a, el_type: "group", from: root, to: a });
    expect(self.status).toBe(400);
    const clash = await post("/api/group/move-member", { el_id: a, el_type: "group", from: root, to: c });
    expect(clash.status).toBe(409);
    const lost = await post("/api/group/move-member", { el_id: a, el_type: "group", from: root, to: crypto.randomUUID() });
    expect(lost.status).toBe(404);
    const wrongFrom = await post("/api/group/move-member", { el_id: b, el_type: "group", from: root, to: c });
    expect(wrongFrom.status).toBe(409);
    expect((await get(`/api/group/get/${a}`)).body.parent_id).toBe(root);
    expect((await get(`/api/group/subtree/${root}`)).body.map((g: { group_id: string }) => g.group_id)).toContain(b);
  });

  it("moves several assets and groups in one batch", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const from = await mkGroup(root);
    const to = await mkGroup(root);
    const g = await mkGroup(from);
    const asset = await placeAsset(from);
    const r = await post("/api/group/move-members", {
      from,
      to,
      members: [
        { el_id: g, el_type: "group" },
        { el_id: asset, el_type: "asset" },
      ],
    });
    expect(r.status).toBe(200);
    expect((await get(`/api/group/get/${g}`)).body.parent_id).toBe(to);
    expect((await get(`/api/group/group-size/${to}`)).body).toMatchObject({ groups: 1, assets: 1 });
    expect((await get(`/api/group/group-size/${from}`)).body).toMatchObject({ groups: 0, assets: 0 });
  });
});

describe("subtree", () => {
  it("pages in path order after a given group; the pages add up to the whole; the last page is short", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    for (const a of [await mkGroup(root), await mkGroup(root)]) await mkGroup(a);
    const whole = (await get(`/api/group/subtree/${root}`)).body.map((g: { group_id: string }) => g.group_id);
    expect(whole).toHaveLength(4);
    const first = await get(`/api/group/subtree/${root}?take=3`);
    expect(first.body.map((g: { group_id: string }) => g.group_id)).toEqual(whole.slice(0, 3));
    const rest = await get(`/api/group/subtree/${root}?take=3&after=${whole[2]}`);
    expect(rest.body.map((g: { group_id: string }) => g.group_id)).toEqual(whole.slice(3));
    expect(rest.body[0]).toEqual({
      group_id: whole[3],
      group_name: expect.any(String),
      parent_id: expect.any(String),
      depth: expect.any(Number),
    });
    const level1 = await get(`/api/group/subtree/${root}?depth=1&take=1&after=${whole[0]}`);
    expect(level1.body.map((g: { parent_id: string }) => g.parent_id)).toEqual([root]);
  });

  it("pages below the virtual root for a reader, and never starts after a group it cannot read", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const open = [await mkGroup(root), await mkGroup(root)];
    const closed = await mkGroup(open[0]);
    const u = await mkPerson();
    for (const g of open) await grant(u.id, g, ["read"]);
    await grant(u.id, closed, ["deny"]);
    const first = await get(`/api/group/subtree/${VIRTUAL_ROOT}?take=1`, u.bearer);
    expect(first.body).toHaveLength(1);
    const next = await get(`/api/group/subtree/${VIRTUAL_ROOT}?take=1&after=${first.body[0].group_id}`, u.bearer);
    expect([first.body[0].group_id, next.body[0].group_id].sort()).toEqual([...open].sort());
    expect(next.body[0].parent_id).toBe(VIRTUAL_ROOT);
    // Only a top-most group hangs under the virtual root; below it, groups keep their real parent.
    const inner = await mkGroup(open[1]);
    const whole = (await get(`/api/group/subtree/${VIRTUAL_ROOT}`, u.bearer)).body as { group_id: string; parent_id: string }[];
    expect(Object.fromEntries(whole.map((g) => [g.group_id, g.parent_id]))).toEqual({
      [open[0]]: VIRTUAL_ROOT,
      [open[1]]: VIRTUAL_ROOT,
      [inner]: open[1],
    });
    const hidden = await get(`/api/group/subtree/${open[0]}?after=${closed}`, u.bearer);
    const unknown = await get(`/api/group/subtree/${open[0]}?after=${crypto.randomUUID()}`, u.bearer);
    expect([hidden.status, unknown.status]).toEqual([404, 404]);
    expect(hidden.body.error.message).toBe(unknown.body.error.message);
  });

  it("answers again at once while the tree is unchanged, and follows every change to it and to the caller's rules", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const a = await mkGroup(root, "Альфа");
    const b = await mkGroup(a, "Бета");
    const u = await mkPerson();
    await grant(u.id, root, ["read"]);
    type Node = { group_id: string; group_name: string; parent_id: string; depth: number };
    const tree = async (bearer?: string) => {
      const res = await api(`/api/group/subtree/${root}`, {
        bearer: bearer ?? (await admin()),
        headers: { "Accept-Encoding": "gzip, deflate, br" },
      });
      expect(res.status).toBe(200);
      const rows = (await res.json()) as Node[];
      return Object.fromEntries(rows.map((g) => [g.group_id, `${g.group_name}@${g.parent_id === root ? "root" : g.parent_id}/${g.depth}`]));
    };
    const version = async () => (await db().get<{ v: number }>(sql`SELECT v FROM tree_version`)).v;
    expect(await tree()).toEqual({ [a]: "Альфа@root/2", [b]: `Бета@${a}/3` });
    // Asked again, the answer is the same; it goes out already compressed, with the API's usual headers.
    const res = await api(`/api/group/subtree/${root}`, { bearer: await admin(), headers: { "Accept-Encoding": "gzip" } });
    expect([res.headers.get("Content-Type"), res.headers.get("Content-Encoding")]).toEqual(["application/json", "gzip"]);
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
    await res.body?.cancel();
    // A client that does not take gzip (no Accept-Encoding at all, as curl; or gzip refused) gets plain JSON.
    for (const headers of [{}, { "Accept-Encoding": "br, gzip;q=0" }] as Record<string, string>[]) {
      const plain = await api(`/api/group/subtree/${root}`, { bearer: await admin(), headers });
      expect(plain.headers.get("Content-Encoding")).toBeNull();
      expect((JSON.parse(await plain.text()) as Node[]).map((g) => g.group_id)).toEqual([a, b]);
    }

    // Work on assets does not touch the tree's version, so it keeps what is held.
    const before = await version();
    await placeAsset(b);
    expect(await version()).toBe(before);

    expect((await call(`/api/group/update/${b}`, { method: "PATCH", json: { group_name: "Бета 2" }, bearer: await admin() })).status).toBe(
      200,
    );
    expect((await tree())[b]).toBe(`Бета 2@${a}/3`);
    const c = await mkGroup(a, "Гамма");
    expect((await tree())[c]).toBe(`Гамма@${a}/3`);
    expect((await post("/api/group/move-member", { el_id: b, el_type: "group", from: a, to: root })).status).toBe(200);
    expect((await tree())[b]).toBe("Бета 2@root/2");
    expect((await call(`/api/group/delete/${a}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect(Object.keys(await tree())).toEqual([b]);
    expect((await post("/api/group/restore", { ids: [a] })).status).toBe(200);
    expect(Object.keys(await tree()).sort()).toEqual([a, b, c].sort());

    // The caller's rules are part of the key: a new deny hides its subtree from that caller only.
    expect(Object.keys(await tree(u.bearer)).sort()).toEqual([a, b, c].sort());
    await grant(u.id, a, ["deny"]);
    expect(Object.keys(await tree(u.bearer))).toEqual([b]);
    expect(Object.keys(await tree()).sort()).toEqual([a, b, c].sort());

    expect((await post("/api/group/delete-list", { ids: [b] })).status).toBe(200);
    expect((await post("/api/group/purge", { ids: [b] })).status).toBe(200);
    expect(Object.keys(await tree()).sort()).toEqual([a, c].sort());
  });

  it.each([
    ["take", "take=0"],
    ["take", "take=10001"],
    ["take", "take=много"],
    ["after", "after=not-an-id"],
    ["after", "after=SELF"],
    ["after", "after=OUTSIDE"],
  ])("answers 400 naming %s (%s)", async (field, query) => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const outside = await mkGroup(VIRTUAL_ROOT);
    const r = await get(`/api/group/subtree/${root}?${query.replace("SELF", root).replace("OUTSIDE", outside)}`);
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });
});

describe("paths", () => {
  it("resolves a path of names and lists it as a directory; refuses walking out of the tree", async () => {
    const top = uniq("Корень");
    const root = await mkGroup(VIRTUAL_ROOT, top);
    const sub = await mkGroup(root, "Папка");
    await mkGroup(sub, "Внутри");
    const e = await get(`/api/group/entity-by-path?path=${encodeURIComponent(`/${top.toUpperCase()}/./x/../папка`)}`);
    expect(e.body).toEqual({ el_id: sub, el_type: "group", name: "Папка" });
    const d = await get(`/api/group/dir?path=${encodeURIComponent(`/${top}/Папка`)}`);
    expect(d.body).toEqual([
      expect.objectContaining({ type: "group", name: "Внутри", size: 0, var_hash: null, atime: expect.any(Number) }),
    ]);
    const out = await get(`/api/group/entity-by-path?path=${encodeURIComponent(`/${top}/../..`)}`);
    expect(out.status).toBe(400);
    expect(out.body.error.message).toBe("Путь выходит за пределы дерева");
    expect((await get(`/api/group/dir?path=${encodeURIComponent("/../etc")}`)).status).toBe(400);
    expect((await get(`/api/group/entity-by-path?path=${encodeURIComponent(`/${top}/нет`)}`)).status).toBe(404);
    const u = await mkPerson();
    expect((await get(`/api/group/entity-by-path?path=${encodeURIComponent(`/${top}`)}`, u.bearer)).status).toBe(404);
  });

  it("searches readable groups by name", async () => {
    const word = uniq("Искомое");
    const root = await mkGroup(VIRTUAL_ROOT);
    await mkGroup(root, `${word} 1`);
    const hidden = await mkGroup(VIRTUAL_ROOT);
    await mkGroup(hidden, `${word} 2`);
    const u = await mkPerson();
    await grant(u.id, root, ["read"]);
    expect(names((await get(`/api/group/search?q=${encodeURIComponent(word.toLowerCase())}`, u.bearer)).body)).toEqual([`${word} 1`]);
    expect((await get(`/api/group/search?q=${encodeURIComponent(word)}`)).body).toHaveLength(2);
    expect((await get("/api/group/search")).status).toBe(400);
  });
});

describe("delete, restore, purge", () => {
  it("delete hides the subtree, restore brings it back, purge needs a deleted group and removes it for good", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const a = await mkGroup(root);
    const b = await mkGroup(a);
    const asset = await placeAsset(b);
    expect((await post("/api/group/purge", { ids: [a] })).status).toBe(409);
    expect((await call(`/api/group/delete/${a}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await get(`/api/group/get/${b}`)).status).toBe(404);
    expect((await get(`/api/auth/entity-access/${asset}`)).status).toBe(404);
    expect((await post("/api/group/restore", { ids: [b] })).status).toBe(409);
    expect((await post("/api/group/restore", { ids: [a] })).status).toBe(200);
    expect((await get(`/api/group/get/${b}`)).status).toBe(200);
    expect((await get(`/api/auth/entity-access/${asset}`)).status).toBe(200);
    expect((await post("/api/group/delete-list", { ids: [a] })).status).toBe(200);
    expect((await post("/api/group/purge", { ids: [a] })).status).toBe(200);
    expect((await post("/api/group/restore", { ids: [a] })).status).toBe(404);
    expect((await get(`/api/group/members/${root}`)).body).toEqual([]);
  });

  it("needs delete permission", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const u = await mkPerson();
    await grant(u.id, root, ["read", "update"]);
    expect((await call(`/api/group/delete/${root}`, { method: "DELETE", bearer: u.bearer })).status).toBe(403);
    expect((await call(`/api/group/delete/${VIRTUAL_ROOT}`, { method: "DELETE", bearer: await admin() })).status).toBe(400);
  });
});

describe("storage and previews", () => {
  it("inherits the default storage from the nearest ancestor", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const child = await mkGroup(root);
    // The storage must exist (a made-up id is a 400 naming the field: docs/decisions/016-one-storage-resolver.md).
    expect(
      (await call(`/api/group/update/${root}`, { method: "PATCH", json: { group_default_storage: "s3-main" }, bearer: await admin() }))
        .status,
    ).toBe(400);
    const storage = (await post("/api/storage/create", { storage_name: "Основное", kind: "r2" })).body.storage_id;
    await call(`/api/group/update/${root}`, { method: "PATCH", json: { group_default_storage: storage }, bearer: await admin() });
    expect((await get(`/api/group/storage/${child}`)).body).toEqual({ group_id: child, storage_id: storage, inherited_from: root });
  });

  it("lists up to four asset ids per group", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    for (let i = 0; i < 5; i++) await placeAsset(root);
    const r = await post("/api/group/preview-list", { ids: [root] });
    expect(r.body[0].assets).toHaveLength(4);
    expect((await post("/api/group/preview-list", { ids: [] })).status).toBe(400);
  });
});
