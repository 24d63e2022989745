import { describe, expect, it } from "vitest";
import { accessOf, admin, call, grant, joinTeam, mkGroup, mkPerson, placeAsset, VIRTUAL_ROOT } from "./fixtures";

/** The permission engine through the API (docs/decisions/003-permission-engine.md). */

const all = ["read", "update", "create", "delete", "acl", "group", "superuser", "download", "execute"];

async function tree() {
  const root = await mkGroup(VIRTUAL_ROOT);
  const a = await mkGroup(root);
  const b = await mkGroup(a);
  const c = await mkGroup(b);
  const other = await mkGroup(root);
  return { root, a, b, c, other };
}

const ids = (rows: { group_id: string }[]) => rows.map((r) => r.group_id);

describe("inheritance", () => {
  it("a rule on a group reaches its whole subtree and the assets in it, not its parent or siblings", async () => {
    const t = await tree();
    const u = await mkPerson();
    await grant(u.id, t.a, ["read", "download"]);
    const asset = await placeAsset(t.c);
    expect(await accessOf(t.a, u.bearer)).toEqual(["read", "download"]);
    expect(await accessOf(t.c, u.bearer)).toEqual(["read", "download"]);
    expect(await accessOf(asset, u.bearer)).toEqual(["read", "download"]);
    expect(await accessOf(t.root, u.bearer)).toBe(404);
    expect(await accessOf(t.other, u.bearer)).toBe(404);
  });

  it("grants along the way add up, and any grant implies read", async () => {
    const t = await tree();
    const u = await mkPerson();
    await grant(u.id, t.a, ["download"]);
    await grant(u.id, t.b, ["update"]);
    expect(await accessOf(t.a, u.bearer)).toEqual(["read", "download"]);
    expect(await accessOf(t.c, u.bearer)).toEqual(["read", "update", "download"]);
  });

  it("an asset in several groups gets the rules of each, and its own", async () => {
    const t = await tree();
    const u = await mkPerson();
    const asset = await placeAsset(t.c);
    await placeAsset(t.other, asset);
    await grant(u.id, t.c, ["read"]);
    await grant(u.id, t.other, ["update"]);
    await grant(u.id, asset, ["download"], "user", "asset");
    expect(await accessOf(asset, u.bearer)).toEqual(["read", "update", "download"]);
  });

  it("an unknown id and an unreadable one answer the same 404", async () => {
    const t = await tree();
    const u = await mkPerson();
    const hidden = await call(`/api/auth/entity-access/${t.a}`, { bearer: u.bearer });
    const missing = await call(`/api/auth/entity-access/${crypto.randomUUID()}`, { bearer: u.bearer });
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.body.error.message).toBe(missing.body.error.message);
  });
});

describe("deny", () => {
  it("a deny below a grant hides that subtree; above a grant it hides everything below", async () => {
    const t = await tree();
    const u = await mkPerson();
    await grant(u.id, t.a, ["read", "update"]);
    await grant(u.id, t.b, ["deny"]);
    expect(await accessOf(t.a, u.bearer)).toEqual(["read", "update"]);
    expect(await accessOf(t.b, u.bearer)).toBe(404);
    expect(await accessOf(t.c, u.bearer)).toBe(404);

    const v = await mkPerson();
    await grant(v.id, t.a, ["deny"]);
    await grant(v.id, t.c, ["superuser"]);
    expect(await accessOf(t.c, v.bearer)).toBe(404);
  });

  it("a deny on any group holding an asset beats grants through its other groups", async () => {
    const t = await tree();
    const u = await mkPerson();
    const asset = await placeAsset(t.c);
    await placeAsset(t.other, asset);
    await grant(u.id, t.root, ["read"]);
    await grant(u.id, t.other, ["deny"]);
    expect(await accessOf(asset, u.bearer)).toBe(404);
    const members = await call(`/api/group/group-size/${t.c}`, { bearer: u.bearer });
    expect(members.body).toMatchObject({ assets: 0 });
  });

  it("a team's deny beats the user's own grant", async () => {
    const t = await tree();
    const team = await mkGroup(t.root);
    const u = await mkPerson();
    await joinTeam(team, u.id);
    await grant(u.id, t.a, ["read"]);
    await grant(team, t.b, ["deny"], "group");
    expect(await accessOf(t.a, u.bearer)).toEqual(["read"]);
    expect(await accessOf(t.b, u.bearer)).toBe(404);
  });
});

describe("superuser and admins", () => {
  it("superuser grants every permission below its object", async () => {
    const t = await tree();
    const u = await mkPerson();
    await grant(u.id, t.b, ["superuser"]);
    expect(await accessOf(t.c, u.bearer)).toEqual(all);
    expect(await accessOf(t.a, u.bearer)).toBe(404);
  });

  it("admins have everything everywhere", async () => {
    const t = await tree();
    expect(await accessOf(t.c, await admin())).toEqual(all);
  });
});

describe("teams", () => {
  it("a member of a team gets the team's rules; leaving the team takes them away", async () => {
    const t = await tree();
    const team = await mkGroup(t.root);
    const u = await mkPerson();
    await grant(team, t.b, ["read", "update"], "group");
    expect(await accessOf(t.b, u.bearer)).toBe(404);
    await joinTeam(team, u.id);
    expect(await accessOf(t.c, u.bearer)).toEqual(["read", "update"]);
    const abilities = await call("/api/auth/user-abilities", { bearer: u.bearer });
    expect(abilities.body.any_acls).toBe(true);
    const off = await call("/api/group/delete-members", {
      method: "POST",
      json: { group_id: team, members: [{ el_id: u.id, el_type: "user" }] },
      bearer: await admin(),
    });
    expect(off.status).toBe(200);
    expect(await accessOf(t.c, u.bearer)).toBe(404);
  });
});

describe("chroot", () => {
  it("confines a user to the chroot subtrees even where rules grant more", async () => {
    const t = await tree();
    const u = await mkPerson({ chroot: [t.b] });
    await grant(u.id, t.root, ["read", "update"]);
    expect(await accessOf(t.a, u.bearer)).toBe(404);
    expect(await accessOf(t.other, u.bearer)).toBe(404);
    expect(await accessOf(t.c, u.bearer)).toEqual(["read", "update"]);
    const roots = await call("/api/group/acl-roots", { bearer: u.bearer });
    expect(ids(roots.body)).toEqual([t.b]);
  });

  it("confines but never grants", async () => {
    const t = await tree();
    const u = await mkPerson({ chroot: [t.b] });
    expect(await accessOf(t.b, u.bearer)).toBe(404);
    expect((await call("/api/group/acl-roots", { bearer: u.bearer })).body).toEqual([]);
  });
});

describe("moving a group", () => {
  it("rights follow the new place", async () => {
    const t = await tree();
    const u = await mkPerson();
    await grant(u.id, t.other, ["read"]);
    const asset = await placeAsset(t.c);
    expect(await accessOf(t.c, u.bearer)).toBe(404);
    const moved = await call("/api/group/move-member", {
      method: "POST",
      json: { el_id: t.b, el_type: "group", from: t.a, to: t.other },
      bearer: await admin(),
    });
    expect(moved.status).toBe(200);
    expect(await accessOf(t.b, u.bearer)).toEqual(["read"]);
    expect(await accessOf(t.c, u.bearer)).toEqual(["read"]);
    expect(await accessOf(asset, u.bearer)).toEqual(["read"]);
    const sub = await call(`/api/group/subtree/${t.other}`, { bearer: u.bearer });
    expect(ids(sub.body)).toEqual(expect.arrayContaining([t.b, t.c]));
    expect(sub.body.find((g: { group_id: string }) => g.group_id === t.c).depth).toBe(4);
  });
});

describe("acl-roots", () => {
  it("lists the top-most readable groups only", async () => {
    const t = await tree();
    const u = await mkPerson();
    await grant(u.id, t.b, ["read"]);
    await grant(u.id, t.c, ["update"]);
    await grant(u.id, t.other, ["read"]);
    const roots = await call("/api/group/acl-roots", { bearer: u.bearer });
    expect(ids(roots.body).sort()).toEqual([t.b, t.other].sort());
    const virtual = await call(`/api/group/members/${VIRTUAL_ROOT}`, { bearer: u.bearer });
    expect(virtual.body.map((m: { el_id: string }) => m.el_id).sort()).toEqual([t.b, t.other].sort());
  });
});
