import { describe, expect, it } from "vitest";
import { type AccessContext, buildContext } from "../../functions/lib/access-context";
import {
  allGrants,
  assetPermissions,
  assetRights,
  groupPermissions,
  ownedPermissions,
  type OwnedObject,
  permissionsOn,
  placementGain,
  sharedLevel,
  sharedNeed,
} from "../../functions/lib/access-rules";

/** The permission engine's evaluation, without a database (functions/lib/access-rules.ts). */

/** A user "me" with no rules, changed by `over`. */
const ctx = (over: Partial<AccessContext> = {}): AccessContext => ({
  ...buildContext({ userId: "me", isAdmin: false, chrootGroups: [] }, [[], [], []]),
  ...over,
});
const admin = ctx({ userId: "root", admin: true });

describe("owned objects", () => {
  const upload: OwnedObject = { id: "u1", type: "upload", owner: "me" };

  it("give their owner and admins every right, and nobody else anything", () => {
    expect(permissionsOn(ctx(), upload)).toEqual(allGrants);
    expect(permissionsOn(admin, upload)).toEqual(allGrants);
    expect(permissionsOn(ctx({ userId: "other" }), upload)).toBeNull();
  });

  it("group rules and asset grants give nothing on them", () => {
    const ruled = ctx({ userId: "other", grants: [{ path: "/", acl: ["superuser"] }], assetGrants: new Map([["u1", ["superuser"]]]) });
    expect(permissionsOn(ruled, upload)).toBeNull();
  });

  it("a share lends its role to the user or team it names, the best one wins", () => {
    const wf: OwnedObject = {
      id: "w1",
      type: "workflow",
      owner: "owner",
      shares: [
        { subjType: "user", subjId: "me", role: "view" },
        { subjType: "team", subjId: "t1", role: "edit" },
      ],
    };
    expect(ownedPermissions(ctx(), wf)).toEqual(["read"]);
    expect(ownedPermissions(ctx({ teams: ["t1"] }), wf)).toEqual(["read", "update"]);
    expect(ownedPermissions(ctx({ userId: "someone" }), wf)).toBeNull();
    expect(ownedPermissions(ctx({ userId: "someone", teams: ["t2"] }), wf)).toBeNull();
    expect(ownedPermissions(ctx({ userId: "owner" }), wf)).toEqual(allGrants);
  });

  it("share levels: owner ⊃ edit ⊃ view, and the permission each stands for", () => {
    expect(sharedLevel(allGrants)).toBe("owner");
    expect(sharedLevel(["read", "update"])).toBe("edit");
    expect(sharedLevel(["read"])).toBe("view");
    expect(sharedLevel(null)).toBeNull();
    expect(ownedPermissions(ctx(), { owner: "x", shares: [{ subjType: "user", subjId: "me", role: "edit" }] })).not.toContain(
      sharedNeed.owner,
    );
    expect(ownedPermissions(ctx(), { owner: "x", shares: [{ subjType: "user", subjId: "me", role: "view" }] })).not.toContain(
      sharedNeed.edit,
    );
  });
});

describe("groups and assets", () => {
  it("a group rule covers its subtree; a deny or a chroot hides it", () => {
    const c = ctx({ grants: [{ path: "/a/", acl: ["update"] }] });
    expect(groupPermissions(c, "/a/b/")).toEqual(["read", "update"]);
    expect(groupPermissions(c, "/x/")).toBeNull();
    expect(groupPermissions({ ...c, denyPaths: ["/a/b/"] }, "/a/b/c/")).toBeNull();
    expect(groupPermissions({ ...c, chroot: ["/z/"] }, "/a/b/")).toBeNull();
    expect(groupPermissions(ctx({ grants: [{ path: "/a/", acl: ["superuser"] }] }), "/a/")).toEqual(allGrants);
  });

  it("an asset in no group is its owner's alone", () => {
    const loose = { id: "a1", placements: [], owner: "me", placed: false };
    expect(assetPermissions(ctx(), loose)).toEqual(assetRights);
    expect(assetPermissions(ctx({ userId: "other" }), loose)).toBeNull();
    expect(assetPermissions(admin, loose)).toEqual(allGrants);
  });

  it("the virtual root is readable by everyone", () => {
    expect(permissionsOn(ctx(), { id: "root", type: "group", path: "/", deleted: false, virtual: true })).toEqual(["read"]);
  });

  it("placing gains the rights of the new place, and nothing when the rights are the same", () => {
    const c = ctx({
      grants: [
        { path: "/r/", acl: ["read"] },
        { path: "/mine/", acl: ["superuser"] },
      ],
    });
    const asset = { id: "a1", type: "asset" as const, placements: ["/r/"], owner: "x", placed: true };
    expect(placementGain(c, asset, "/mine/")).toContain("delete");
    expect(placementGain(c, asset, "/r/sub/")).toEqual([]);
  });
});

describe("buildContext", () => {
  it("sorts rules into grants and denies, and keeps the chroot only for confined users", () => {
    const rows = [
      [{ id: "t1" }],
      [
        { objId: "g1", objType: "group", acl: '["update"]', path: "/a/" },
        { objId: "g2", objType: "group", acl: '["deny"]', path: "/b/" },
        { objId: "a1", objType: "asset", acl: '["read"]', path: null },
        { objId: "a2", objType: "asset", acl: '["deny"]', path: null },
      ],
      [{ path: "/a/" }],
    ];
    const c = buildContext({ userId: "me", isAdmin: false, chrootGroups: ["g1"] }, rows);
    expect(c.teams).toEqual(["t1"]);
    expect(c.grants).toEqual([{ path: "/a/", acl: ["update"] }]);
    expect(c.denyPaths).toEqual(["/b/"]);
    expect(c.assetGrants.get("a1")).toEqual(["read"]);
    expect(c.assetDenies.has("a2")).toBe(true);
    expect(c.chroot).toEqual(["/a/"]);
    expect(buildContext({ userId: "me", isAdmin: false, chrootGroups: [] }, rows).chroot).toBeNull();
    expect(buildContext({ userId: "root", isAdmin: true, chrootGroups: [] }, rows).grants).toEqual([]);
  });
});
