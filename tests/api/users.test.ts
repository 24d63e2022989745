import { describe, expect, it } from "vitest";
import { admin, call, grant, issueToken, joinTeam, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { login } from "./helpers";

/** /api/user: user administration, access rules, robots' tokens, the caller's own settings. */

const as = async (bearer?: string) => bearer ?? (await admin());
const post = async (path: string, json: unknown, bearer?: string) => call(path, { method: "POST", json, bearer: await as(bearer) });
const patch = async (path: string, json: unknown, bearer?: string) => call(path, { method: "PATCH", json, bearer: await as(bearer) });
const get = async (path: string, bearer?: string) => call(path, { bearer: await as(bearer) });

const newUser = (over: Record<string, unknown> = {}) => ({
  user_name: "Иван Петров",
  user_login: uniq("ivan").toLowerCase(),
  user_passwd: "long-enough-pw",
  enabled: true,
  ...over,
});

describe("user CRUD (admins)", () => {
  it("creates, reads, lists, updates and deletes a user without ever returning a hash", async () => {
    const body = newUser();
    const created = await post("/api/user", body);
    expect(created.status).toBe(200);
    const id = created.body.user_id;
    const one = await get(`/api/user/${id}`);
    expect(one.body).toEqual({
      user_id: id,
      user_name: "Иван Петров",
      enabled: true,
      login: body.user_login,
      chroot_groups: [],
      default_storage: null,
      is_robot: false,
      acl_count: 0,
      quota: null,
      quota_used: 0,
    });
    expect(one.text).not.toMatch(/scrypt|passwd/);
    const list = await get(`/api/user?q=${body.user_login}`);
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toMatch(/scrypt/);
    expect((await patch(`/api/user/${id}`, { user_name: "Пётр" })).body.user_name).toBe("Пётр");
    expect((await call(`/api/user/${id}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await get(`/api/user/${id}`)).status).toBe(404);
  });

  it.each(["user_name", "user_login", "user_passwd", "enabled"])("answers 400 naming the missing %s", async (field) => {
    const body: Record<string, unknown> = newUser();
    delete body[field];
    const r = await post("/api/user", body);
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("finds a Cyrillic name typed as it is, in lower case or capitalised (SQLite folds only ASCII)", async () => {
    const tail = uniq("x").toLowerCase();
    const body = newUser({ user_name: `Сотрудник Отдела ${tail}` });
    const { user_id } = (await post("/api/user", body)).body;
    for (const q of [`Сотрудник Отдела ${tail}`, `сотрудник отдела ${tail}`, `отдела ${tail}`]) {
      const found = await get(`/api/user?q=${encodeURIComponent(q)}`);
      expect(
        found.body.map((u: { user_id: string }) => u.user_id),
        q,
      ).toEqual([user_id]);
    }
  });

  it("refuses a taken login (case-insensitive) and unknown chroot groups", async () => {
    const body = newUser();
    await post("/api/user", body);
    expect((await post("/api/user", { ...body, user_login: body.user_login.toUpperCase() })).status).toBe(409);
    const r = await post("/api/user", newUser({ chroot_groups: [crypto.randomUUID()] }));
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].field).toBe("chroot_groups");
  });

  it("answers 403 to non-admins", async () => {
    const u = await mkPerson();
    expect((await get("/api/user", u.bearer)).status).toBe(403);
    expect((await post("/api/user", newUser(), u.bearer)).status).toBe(403);
    expect((await get(`/api/user/${u.id}`, u.bearer)).status).toBe(403);
  });

  it("disabling a user ends their sessions at once; re-enabling needs a new sign-in", async () => {
    const u = await mkPerson();
    expect((await get("/api/auth/whoami", u.bearer)).status).toBe(200);
    expect((await patch(`/api/user/${u.id}`, { enabled: false })).status).toBe(200);
    expect((await get("/api/auth/whoami", u.bearer)).status).toBe(401);
    await patch(`/api/user/${u.id}`, { enabled: true });
    expect((await get("/api/auth/whoami", u.bearer)).status).toBe(401);
    const again = await login({ user: u.login, passwd: u.password });
    expect((await get("/api/auth/whoami", again.bearer)).status).toBe(200);
  });
});

describe("robots and API tokens", () => {
  it("a token issued to a robot authenticates it once shown; revoking it ends access", async () => {
    const created = await post("/api/user", newUser({ is_robot: true }));
    const robotId = created.body.user_id;
    const group = await mkGroup(VIRTUAL_ROOT);
    await grant(robotId, group, ["read"]);
    const { token, token_id } = await issueToken(robotId);
    expect(token).toMatch(/^mam_/);
    expect((await get(`/api/group/get/${group}`, token)).status).toBe(200);
    const listed = await get(`/api/user/${robotId}/tokens`);
    expect(listed.text).not.toContain(token);
    expect(listed.body).toEqual([expect.objectContaining({ token_id, revoked_at: null })]);
    expect((await call(`/api/user/${robotId}/tokens/${token_id}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await get(`/api/group/get/${group}`, token)).status).toBe(401);
    expect((await get("/api/auth/whoami", "mam_made-up")).status).toBe(401);
  });

  it("issues tokens only to robots, and a disabled robot's token stops working", async () => {
    const human = await mkPerson();
    expect((await post(`/api/user/${human.id}/tokens`, { name: "x" })).status).toBe(400);
    const robot = await mkPerson({ robot: true });
    const { token } = await issueToken(robot.id);
    expect((await get("/api/auth/user-abilities", token)).body).toMatchObject({ is_robot: true });
    await patch(`/api/user/${robot.id}`, { enabled: false });
    expect((await get("/api/auth/whoami", token)).status).toBe(401);
  });
});

describe("access rules", () => {
  it("creates, reads, updates, lists and deletes a rule with subject and object names", async () => {
    const u = await mkPerson();
    const name = uniq("Архив");
    const g = await mkGroup(VIRTUAL_ROOT, name);
    const r = await post("/api/user/acl", { subj: u.id, obj: g, acl: ["read", "read", "download"] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      subj_id: u.id,
      subj_type: "user",
      obj_id: g,
      obj_type: "group",
      acl: ["read", "download"],
      subj_name: u.login,
      obj_name: name,
    });
    expect((await post("/api/user/acl", { subj: u.id, obj: g, acl: ["read"] })).status).toBe(409);
    expect((await get(`/api/user/acl/${r.body.rule_id}`)).body.rule_id).toBe(r.body.rule_id);
    expect((await patch(`/api/user/acl/${r.body.rule_id}`, { acl: ["update"] })).body.acl).toEqual(["update"]);
    expect((await get(`/api/user/acl-list?subj=${u.id}`)).body).toHaveLength(1);
    expect((await get(`/api/user/user-acl/${u.id}`)).body).toHaveLength(1);
    expect((await get(`/api/user/group-acl/${g}`)).body).toHaveLength(1);
    expect((await get(`/api/user/${u.id}`)).body.acl_count).toBe(1);
    expect((await call(`/api/user/acl/${r.body.rule_id}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await get(`/api/user/acl/${r.body.rule_id}`)).status).toBe(404);
  });

  it("answers 400 naming acl for an unknown permission, 404 for an unknown subject or object", async () => {
    const u = await mkPerson();
    const g = await mkGroup(VIRTUAL_ROOT);
    const bad = await post("/api/user/acl", { subj: u.id, obj: g, acl: ["read", "fly"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toMatch(/^acl/);
    expect(bad.body.error.message).toContain("acl");
    for (const field of ["subj", "obj", "acl"]) {
      const body: Record<string, unknown> = { subj: u.id, obj: g, acl: ["read"] };
      delete body[field];
      expect((await post("/api/user/acl", body)).body.error.details[0].field).toBe(field);
    }
    expect((await post("/api/user/acl", { subj: crypto.randomUUID(), obj: g, acl: ["read"] })).status).toBe(404);
    expect((await post("/api/user/acl", { subj: u.id, obj: crypto.randomUUID(), acl: ["read"] })).status).toBe(404);
    expect((await post("/api/user/acl", { subj: u.id, obj: g, acl: ["read"] }, u.bearer)).status).toBe(403);
  });

  it("entity-user-access shows the rules on an object and above it, to holders of acl only", async () => {
    const root = await mkGroup(VIRTUAL_ROOT);
    const child = await mkGroup(root);
    const reader = await mkPerson();
    const keeper = await mkPerson();
    await grant(reader.id, root, ["read"]);
    await grant(keeper.id, child, ["read", "acl"]);
    const r = await get(`/api/auth/entity-user-access/${child}`, keeper.bearer);
    expect(r.status).toBe(200);
    expect(r.body.rules.map((x: { subj_id: string; inherited: boolean }) => [x.subj_id, x.inherited])).toEqual(
      expect.arrayContaining([
        [reader.id, true],
        [keeper.id, false],
      ]),
    );
    expect((await get(`/api/auth/entity-user-access/${child}`, reader.bearer)).status).toBe(403);
    expect((await get(`/api/auth/entity-user-access/${root}`, keeper.bearer)).status).toBe(404);
    const list = await post("/api/auth/entity-user-access", { ids: [child, root] });
    expect(list.body.map((x: { id: string }) => x.id)).toEqual([child, root]);
  });

  it("entity-user-access never names a group the caller cannot read, as object or as team", async () => {
    const rootName = uniq("Верх");
    const teamName = uniq("Тайная команда");
    const root = await mkGroup(VIRTUAL_ROOT, rootName);
    const child = await mkGroup(root);
    const team = await mkGroup(VIRTUAL_ROOT, teamName);
    const seenTeam = await mkGroup(child, uniq("Видимая команда"));
    const reader = await mkPerson();
    const keeper = await mkPerson();
    await grant(reader.id, root, ["read"]);
    await grant(team, child, ["read", "download"], "group");
    await grant(seenTeam, child, ["read"], "group");
    await grant(keeper.id, child, ["read", "acl"]);
    const mine = await get(`/api/auth/entity-user-access/${child}`, keeper.bearer);
    expect(mine.status).toBe(200);
    for (const hidden of [rootName, root, teamName, team]) expect(mine.text).not.toContain(hidden);
    const rows = mine.body.rules as {
      subj_id: string | null;
      subj_name: string | null;
      obj_id: string | null;
      acl: string[];
      inherited: boolean;
    }[];
    // The rule above the keeper's reach is listed without its group; the hidden team's rights without the team.
    expect(rows).toContainEqual(expect.objectContaining({ subj_id: reader.id, obj_id: null, obj_name: null, inherited: true }));
    expect(rows).toContainEqual(expect.objectContaining({ subj_id: null, subj_name: null, acl: ["read", "download"], obj_id: child }));
    expect(rows).toContainEqual(expect.objectContaining({ subj_id: seenTeam, obj_id: child }));
    // Admins see everything named.
    const all = await get(`/api/auth/entity-user-access/${child}`);
    expect(all.body.rules).toContainEqual(expect.objectContaining({ subj_id: team, subj_name: teamName }));
    expect(all.body.rules).toContainEqual(expect.objectContaining({ subj_id: reader.id, obj_id: root, obj_name: rootName }));
  });
});

describe("teams, settings and bookmarks", () => {
  it("sets a user's teams and shows them to the user and to admins", async () => {
    const u = await mkPerson();
    const other = await mkPerson();
    const t1 = await mkGroup(VIRTUAL_ROOT);
    const t2 = await mkGroup(VIRTUAL_ROOT);
    await joinTeam(t1, u.id);
    const r = await patch(`/api/user/membership/${u.id}`, { groups: [t2] });
    expect(r.body.map((t: { group_id: string }) => t.group_id)).toEqual([t2]);
    expect((await get(`/api/user/membership/${u.id}`, u.bearer)).body).toHaveLength(1);
    expect((await get(`/api/user/membership/${u.id}`, other.bearer)).status).toBe(403);
    expect((await patch(`/api/user/membership/${u.id}`, { groups: [t1] }, u.bearer)).status).toBe(403);
  });

  it("lists the members of one team (the admin screen of a group), 400 for a bad group id", async () => {
    const [a, b] = [await mkPerson(), await mkPerson()];
    const team = await mkGroup(VIRTUAL_ROOT);
    await joinTeam(team, a.id);
    const r = await get(`/api/user?group=${team}&take=200`);
    expect(r.status).toBe(200);
    expect(r.body.map((u: { user_id: string }) => u.user_id)).toEqual([a.id]);
    expect(r.body.some((u: { user_id: string }) => u.user_id === b.id)).toBe(false);
    const bad = await get(`/api/user?group=nope`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("group");
    expect((await get(`/api/user?group=${team}`, a.bearer)).status).toBe(403);
  });

  it("keeps each user's ui settings and bookmarks to themselves", async () => {
    const u = await mkPerson();
    expect((await get("/api/user/ui_settings", u.bearer)).body).toEqual({});
    expect((await patch("/api/user/ui_settings", { theme: "dark", view: "grid" }, u.bearer)).body).toEqual({ theme: "dark", view: "grid" });
    expect((await patch("/api/user/ui_settings", { view: null }, u.bearer)).body).toEqual({ theme: "dark" });
    expect((await get("/api/user/ui_settings")).body).not.toHaveProperty("theme");
    const mine = await mkGroup(VIRTUAL_ROOT);
    const hidden = await mkGroup(VIRTUAL_ROOT);
    await grant(u.id, mine, ["read"]);
    const b = await patch("/api/user/bookmarks", [hidden, mine], u.bearer);
    expect(b.body.map((x: { group_id: string }) => x.group_id)).toEqual([mine]);
    expect((await patch("/api/user/bookmarks", ["x"], u.bearer)).status).toBe(400);
  });

  it("keeps both of two tabs' settings saved at the same moment, values replaced whole", async () => {
    const u = await mkPerson();
    await patch("/api/user/ui_settings", { columns: { name: 200, size: 80 }, flag: true }, u.bearer);
    const tabs = Array.from({ length: 8 }, (_, i) =>
      patch("/api/user/ui_settings", { [`tab${i}`]: { open: [i, null], on: i % 2 === 0 } }, u.bearer),
    );
    for (const r of await Promise.all(tabs)) expect(r.status, r.text).toBe(200);
    await patch("/api/user/ui_settings", { columns: { name: 120 }, flag: null }, u.bearer);
    const saved = (await get("/api/user/ui_settings", u.bearer)).body;
    expect(saved).toEqual({
      columns: { name: 120 },
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`tab${i}`, { open: [i, null], on: i % 2 === 0 }])),
    });
  });
});
