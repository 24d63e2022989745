import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../db/schema";
import { db, grant, mkGroup, mkPerson, placeAsset, uniq, VIRTUAL_ROOT } from "./fixtures";
import { adminCredentials } from "./helpers";
import { dav, davPath } from "./dav.helpers";

/**
 * WebDAV locks belong to objects, not to paths (docs/decisions/025-threat-model.md): each user's /dav/ tree
 * starts at their own readable roots, so one file has several paths and unrelated files share one.
 */

const basicAdmin = { login: adminCredentials.user, password: adminCredentials.passwd };
const editor = ["read", "update", "create", "delete", "download"];
const lockBody = (scope: "exclusive" | "shared", owner: string) =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
const discovery = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>`;

async function editorOf(groupId: string) {
  const p = await mkPerson();
  await grant(p.id, groupId, editor);
  return { login: p.login, password: p.password };
}

describe("WebDAV locks are on objects", () => {
  it("a lock taken through one user's path is honoured through another user's path to the same file", async () => {
    const top = uniq("Проект");
    const topId = await mkGroup(VIRTUAL_ROOT, top);
    const sub = uniq("Монтаж");
    const subId = await mkGroup(topId, sub);
    // Anna reaches the file as /dav/<top>/<sub>/cut.txt; Boris, who has rights on the subgroup only, as /dav/<sub>/cut.txt.
    const anna = await editorOf(topId);
    const boris = await editorOf(subId);
    const annaPath = davPath(top, sub, "cut.txt");
    const borisPath = davPath(sub, "cut.txt");
    expect((await dav(annaPath, { method: "PUT", basic: anna, body: "v1" })).status).toBe(201);
    const locked = await dav(annaPath, {
      method: "LOCK",
      basic: anna,
      body: lockBody("exclusive", "anna@example.org"),
      headers: { Depth: "0", Timeout: "Second-120" },
    });
    expect(locked.status).toBe(200);
    const token = locked.headers.get("Lock-Token")!;

    expect((await dav(borisPath, { method: "PUT", basic: boris, body: "чужая правка" })).status).toBe(423);
    expect((await dav(borisPath, { method: "DELETE", basic: boris })).status).toBe(423);
    expect(
      (await dav(borisPath, { method: "LOCK", basic: boris, body: lockBody("exclusive", "boris"), headers: { Depth: "0" } })).status,
    ).toBe(423);
    expect(await (await dav(annaPath, { method: "GET", basic: anna })).text()).toBe("v1");

    // The holder writes through her path with her token; the lock is found through the other path too.
    expect((await dav(annaPath, { method: "PUT", basic: anna, body: "v2", headers: { If: `(${token})` } })).status).toBe(204);
    const seenByBoris = await (await dav(borisPath, { method: "PROPFIND", basic: boris, body: discovery, headers: { Depth: "0" } })).text();
    expect(seenByBoris).toContain("<D:activelock>");
    expect(seenByBoris).toContain("<D:exclusive/>");
    // Another holder's owner text and token are not shown to Boris; the holder and admins see them.
    expect(seenByBoris).not.toContain("anna@example.org");
    expect(seenByBoris).not.toContain(token.slice(1, -1));
    const seenByAnna = await (await dav(annaPath, { method: "PROPFIND", basic: anna, body: discovery, headers: { Depth: "0" } })).text();
    expect(seenByAnna).toContain("anna@example.org");
    expect(seenByAnna).toContain(token.slice(1, -1));
    const seenByAdmin = await (
      await dav(annaPath, { method: "PROPFIND", basic: basicAdmin, body: discovery, headers: { Depth: "1" } })
    ).text();
    expect(seenByAdmin).toContain("anna@example.org");

    // Only the holder (or an admin) lifts the lock: Boris, who sees it, is refused.
    expect((await dav(borisPath, { method: "UNLOCK", basic: boris, headers: { "Lock-Token": token } })).status).toBe(403);
    expect((await dav(annaPath, { method: "UNLOCK", basic: anna, headers: { "Lock-Token": token } })).status).toBe(204);
    expect((await dav(borisPath, { method: "PUT", basic: boris, body: "v3" })).status).toBe(204);
  });

  it("an admin lifts another user's lock", async () => {
    const top = uniq("Проект");
    const topId = await mkGroup(VIRTUAL_ROOT, top);
    const anna = await editorOf(topId);
    const path = davPath(top, "cut.txt");
    expect((await dav(path, { method: "PUT", basic: anna, body: "v1" })).status).toBe(201);
    const locked = await dav(path, { method: "LOCK", basic: anna, body: lockBody("exclusive", "anna"), headers: { Depth: "0" } });
    expect(locked.status).toBe(200);
    const token = locked.headers.get("Lock-Token")!;
    expect((await dav(path, { method: "UNLOCK", basic: basicAdmin, headers: { "Lock-Token": token } })).status).toBe(204);
    expect((await dav(path, { method: "PUT", basic: anna, body: "v2" })).status).toBe(204);
  });

  it("a depth-infinity lock on a group covers its files through another user's path to that group", async () => {
    const top = uniq("Архив");
    const topId = await mkGroup(VIRTUAL_ROOT, top);
    const sub = uniq("Съёмка");
    const subId = await mkGroup(topId, sub);
    const anna = await editorOf(topId);
    const boris = await editorOf(subId);
    const locked = await dav(davPath(top), {
      method: "LOCK",
      basic: anna,
      body: lockBody("exclusive", "anna"),
      headers: { Timeout: "Second-120" },
    });
    expect(locked.status).toBe(200);
    // Boris's root is the subgroup: the lock on its (to him invisible) parent still covers it.
    expect((await dav(davPath(sub, "new.txt"), { method: "PUT", basic: boris, body: "x" })).status).toBe(423);
    expect((await dav(davPath(sub, "folder"), { method: "MKCOL", basic: boris })).status).toBe(423);
    const token = locked.headers.get("Lock-Token")!;
    expect((await dav(davPath(top), { method: "UNLOCK", basic: anna, headers: { "Lock-Token": token } })).status).toBe(204);
    expect((await dav(davPath(sub, "new.txt"), { method: "PUT", basic: boris, body: "x" })).status).toBe(201);
  });

  it("a depth-infinity lock on a group covers a file placed in it when the file is reached through its other group", async () => {
    const [first, second] = [uniq("Эфир"), uniq("Сайт")];
    const [firstId, secondId] = [await mkGroup(VIRTUAL_ROOT, first), await mkGroup(VIRTUAL_ROOT, second)];
    const anna = await editorOf(firstId);
    const boris = await editorOf(secondId);
    const name = `${uniq("ролик")}.txt`;
    expect((await dav(davPath(first, name), { method: "PUT", basic: anna, body: "v1" })).status).toBe(201);
    const asset = await db().select({ id: assets.assetId }).from(assets).where(eq(assets.name, name)).get();
    await placeAsset(secondId, asset!.id);
    expect((await dav(davPath(first), { method: "LOCK", basic: anna, body: lockBody("exclusive", "anna") })).status).toBe(200);
    // Boris reaches the same file through his own group, which no lock is on: the file is still locked.
    expect((await dav(davPath(second, name), { method: "PUT", basic: boris, body: "v2" })).status).toBe(423);
    expect((await dav(davPath(second, "other.txt"), { method: "PUT", basic: boris, body: "x" })).status).toBe(201);
  });

  it("a depth-infinity lock on one user's «Film» does not block another user's unrelated «Film»", async () => {
    const film = uniq("Фильм");
    const first = await mkGroup(await mkGroup(VIRTUAL_ROOT, uniq("Студия А")), film);
    const second = await mkGroup(await mkGroup(VIRTUAL_ROOT, uniq("Студия Б")), film);
    const anna = await editorOf(first);
    const boris = await editorOf(second);
    // Both see their own group as /dav/<film>/.
    const locked = await dav(davPath(film), {
      method: "LOCK",
      basic: anna,
      body: lockBody("exclusive", "anna"),
      headers: { Timeout: "Second-120" },
    });
    expect(locked.status).toBe(200);
    expect((await dav(davPath(film, "a.txt"), { method: "PUT", basic: anna, body: "a" })).status).toBe(423);
    expect((await dav(davPath(film, "b.txt"), { method: "PUT", basic: boris, body: "b" })).status).toBe(201);
    expect((await dav(davPath(film), { method: "LOCK", basic: boris, body: lockBody("exclusive", "boris") })).status).toBe(200);
    const listing = await (await dav(davPath(film), { method: "PROPFIND", basic: boris, body: discovery, headers: { Depth: "0" } })).text();
    expect(listing.match(/<D:activelock>/g)).toHaveLength(1);
  });
});
