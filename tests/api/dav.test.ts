import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { adminCredentials, createUser } from "./helpers";
import { dav, davPath, hrefsOf } from "./dav.helpers";

/** WebDAV under /dav/ (docs/decisions/036-webdav-and-disk-helper.md): methods, auth and the access rules. */

const basicAdmin = { login: adminCredentials.user, password: adminCredentials.passwd };

async function adminTree() {
  const top = uniq("Диск");
  const id = await mkGroup(VIRTUAL_ROOT, top);
  return { top, id };
}

describe("WebDAV auth", () => {
  it("answers OPTIONS with DAV 1, 2 before any sign-in, and asks for Basic on anything else", async () => {
    const opt = await dav("/dav/", { method: "OPTIONS" });
    expect(opt.status).toBe(200);
    expect(opt.headers.get("DAV")).toBe("1, 2");
    const res = await dav("/dav/", { method: "PROPFIND", headers: { Depth: "0" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Basic realm=/);
  });

  it("accepts the account password and a bearer, refuses a wrong password and throttles guessing", async () => {
    expect((await dav("/dav/", { method: "PROPFIND", basic: basicAdmin, headers: { Depth: "0" } })).status).toBe(207);
    expect((await dav("/dav/", { method: "PROPFIND", bearer: await admin(), headers: { Depth: "0" } })).status).toBe(207);
    const p = await mkPerson();
    const ip = "10.99.0.1";
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await dav("/dav/", { method: "PROPFIND", basic: { login: p.login, password: `wrong-${i}` }, headers: { Depth: "0" }, ip });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
  });

  it("a remembered account password follows its account: made again, it signs in at once; gone, it ends", async () => {
    const creds = { login: `dav-${crypto.randomUUID().slice(0, 8)}`, password: "Remembered-Passw0rd" };
    const propfind = async () => (await dav("/dav/", { method: "PROPFIND", basic: creds, headers: { Depth: "0" } })).status;
    const first = await createUser(creds);
    expect(await propfind()).toBe(207);
    await db().delete(users).where(eq(users.userId, first));
    const second = await createUser(creds);
    expect(await propfind()).toBe(207);
    await db().delete(users).where(eq(users.userId, second));
    expect(await propfind()).toBe(401);
  });
});

describe("WebDAV methods", () => {
  it("PUT makes an asset, GET returns it with ETag and Range, a second PUT makes a new version", async () => {
    const { top } = await adminTree();
    const path = davPath(top, "заметка.txt");
    const put = await dav(path, { method: "PUT", basic: basicAdmin, body: "первая версия", headers: { "Content-Type": "text/plain" } });
    expect(put.status).toBe(201);
    const get = await dav(path, { method: "GET", basic: basicAdmin });
    expect(get.status).toBe(200);
    expect(await get.text()).toBe("первая версия");
    const etag = get.headers.get("ETag")!;
    expect(etag).toMatch(/^".+"$/);
    const range = await dav(path, { method: "GET", basic: basicAdmin, headers: { Range: "bytes=0-5" } });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer()).length).toBe(6);
    expect((await dav(path, { method: "GET", basic: basicAdmin, headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await dav(path, { method: "PUT", basic: basicAdmin, body: "вторая" })).status).toBe(204);
    const again = await dav(path, { method: "GET", basic: basicAdmin });
    expect(await again.text()).toBe("вторая");
    expect(again.headers.get("ETag")).not.toBe(etag);
  });

  it("PROPFIND lists depth 0 and 1 and refuses infinity with propfind-finite-depth", async () => {
    const { top } = await adminTree();
    await dav(davPath(top, "sub"), { method: "MKCOL", basic: basicAdmin });
    await dav(davPath(top, "a.bin"), { method: "PUT", basic: basicAdmin, body: new Uint8Array(10) });
    const d1 = await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, headers: { Depth: "1" } });
    expect(d1.status).toBe(207);
    const xml = await d1.text();
    expect(hrefsOf(xml)).toEqual([`/dav/${top}/`, `/dav/${top}/sub/`, `/dav/${top}/a.bin`]);
    expect(xml).toContain("<D:getcontentlength>10</D:getcontentlength>");
    const d0 = await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, headers: { Depth: "0" } });
    expect(hrefsOf(await d0.text())).toEqual([`/dav/${top}/`]);
    const inf = await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, headers: { Depth: "infinity" } });
    expect(inf.status).toBe(403);
    expect(await inf.text()).toContain("propfind-finite-depth");
  });

  it("PROPFIND depth 1 lists a group of more files than one SQL statement may name", async () => {
    const { top } = await adminTree();
    const groupId = (await call(`/api/group/entity-by-path?path=${encodeURIComponent(`/${top}`)}`, { bearer: await admin() })).body.el_id;
    for (let i = 0; i < 3000; i += 100) {
      const assets = Array.from({ length: 100 }, (_, k) => ({
        asset_name: `f${i + k}.bin`,
        asset_mime: "application/octet-stream",
        in_group: groupId,
      }));
      expect((await call("/api/asset/create-list", { method: "POST", bearer: await admin(), json: { assets } })).status).toBe(200);
    }
    const res = await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, headers: { Depth: "1" } });
    expect(res.status).toBe(207);
    expect(hrefsOf(await res.text())).toHaveLength(3001);
  }, 60_000);

  it("two assets with one name get distinct, stable paths", async () => {
    const { top } = await adminTree();
    await dav(davPath(top, "same.txt"), { method: "PUT", basic: basicAdmin, body: "one" });
    // A second asset of the same name, made through the API (WebDAV would overwrite).
    const groupId = (await call(`/api/group/entity-by-path?path=${encodeURIComponent(`/${top}`)}`, { bearer: await admin() })).body.el_id;
    const made = await call("/api/asset/create", {
      method: "POST",
      bearer: await admin(),
      json: { asset_name: "same.txt", asset_mime: "text/plain", in_group: groupId },
    });
    const list = hrefsOf(await (await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, headers: { Depth: "1" } })).text());
    // The older placement (by time, then id) keeps the name; the other shows its id's first 8 characters.
    expect(list.slice(0, 2)).toEqual([`/dav/${top}/`, `/dav/${top}/same.txt`]);
    const tag = /^.*\/same \(([0-9a-f]{8})\)\.txt$/.exec(list[2] ?? "")?.[1];
    expect(tag).toBeDefined();
    const plain = await (await dav(davPath(top, "same.txt"), { method: "GET", basic: basicAdmin })).text();
    const other = await (await dav(list[2], { method: "GET", basic: basicAdmin })).text();
    expect([plain, other].sort()).toEqual(["", "one"]);
    expect(made.body.asset_id.startsWith(tag) === (other === "")).toBe(true);
  });

  it("MKCOL, COPY, MOVE and DELETE change the tree", async () => {
    const { top } = await adminTree();
    expect((await dav(davPath(top, "src"), { method: "MKCOL", basic: basicAdmin })).status).toBe(201);
    expect((await dav(davPath(top, "src"), { method: "MKCOL", basic: basicAdmin })).status).toBe(405);
    expect((await dav(davPath(top, "missing", "x"), { method: "MKCOL", basic: basicAdmin })).status).toBe(409);
    await dav(davPath(top, "src", "f.txt"), { method: "PUT", basic: basicAdmin, body: "data" });
    const dest = (...s: string[]) => ({ Destination: `http://mam.test${davPath(top, ...s)}` });
    expect((await dav(davPath(top, "src"), { method: "COPY", basic: basicAdmin, headers: dest("copy") })).status).toBe(201);
    expect(await (await dav(davPath(top, "copy", "f.txt"), { method: "GET", basic: basicAdmin })).text()).toBe("data");
    expect(
      (await dav(davPath(top, "src"), { method: "COPY", basic: basicAdmin, headers: { ...dest("copy"), Overwrite: "F" } })).status,
    ).toBe(412);
    expect((await dav(davPath(top, "src", "f.txt"), { method: "MOVE", basic: basicAdmin, headers: dest("copy", "g.txt") })).status).toBe(
      201,
    );
    expect((await dav(davPath(top, "src", "f.txt"), { method: "GET", basic: basicAdmin })).status).toBe(404);
    expect(await (await dav(davPath(top, "copy", "g.txt"), { method: "GET", basic: basicAdmin })).text()).toBe("data");
    expect((await dav(davPath(top, "copy"), { method: "DELETE", basic: basicAdmin })).status).toBe(204);
    expect((await dav(davPath(top, "copy", "g.txt"), { method: "GET", basic: basicAdmin })).status).toBe(404);
  });

  it("a lock refuses a PUT without its token and allows one with it; PROPPATCH stores a dead property", async () => {
    const { top } = await adminTree();
    const path = davPath(top, "locked.txt");
    await dav(path, { method: "PUT", basic: basicAdmin, body: "v1" });
    const lockBody = `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>тест</D:owner></D:lockinfo>`;
    const locked = await dav(path, { method: "LOCK", basic: basicAdmin, body: lockBody, headers: { Depth: "0", Timeout: "Second-60" } });
    expect(locked.status).toBe(200);
    const token = locked.headers.get("Lock-Token")!;
    expect(token).toMatch(/^<urn:uuid:/);
    expect((await dav(path, { method: "PUT", basic: basicAdmin, body: "v2" })).status).toBe(423);
    expect((await dav(path, { method: "PUT", basic: basicAdmin, body: "v2", headers: { If: `(${token})` } })).status).toBe(204);
    expect((await dav(path, { method: "UNLOCK", basic: basicAdmin, headers: { "Lock-Token": token } })).status).toBe(204);
    const patch = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example"><D:set><D:prop><Z:color>синий</Z:color></D:prop></D:set></D:propertyupdate>`;
    expect((await dav(path, { method: "PROPPATCH", basic: basicAdmin, body: patch })).status).toBe(207);
    const read = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><Z:color xmlns:Z="urn:example"/></D:prop></D:propfind>`;
    const found = await (await dav(path, { method: "PROPFIND", basic: basicAdmin, body: read, headers: { Depth: "0" } })).text();
    expect(found).toContain("синий");
    expect(found).toContain("HTTP/1.1 200 OK");
  });
});

describe("WebDAV access rules", () => {
  it("a user sees only the groups they can read, rooted at their acl-roots", async () => {
    const { top, id } = await adminTree();
    const visible = await mkGroup(id, "видна");
    await mkGroup(id, "скрыта");
    const p = await mkPerson();
    await grant(p.id, visible, ["read"]);
    const creds = { login: p.login, password: p.password };
    const root = await (await dav("/dav/", { method: "PROPFIND", basic: creds, headers: { Depth: "1" } })).text();
    expect(hrefsOf(root)).toEqual(["/dav/", "/dav/видна/"]);
    expect(root).not.toContain(top);
    expect((await dav(davPath("скрыта"), { method: "PROPFIND", basic: creds, headers: { Depth: "0" } })).status).toBe(404);
    expect((await dav(davPath(top), { method: "PROPFIND", basic: creds, headers: { Depth: "0" } })).status).toBe(404);
  });

  it("a read-only user cannot PUT, MKCOL or DELETE", async () => {
    const { top, id } = await adminTree();
    const name = uniq("общая");
    const shared = await mkGroup(id, name);
    const p = await mkPerson();
    await grant(p.id, shared, ["read", "download"]);
    const creds = { login: p.login, password: p.password };
    // The admin sees the group under its parent; the reader sees it at its own root.
    expect((await dav(davPath(top, name, "f.txt"), { method: "PUT", basic: basicAdmin, body: "x" })).status).toBe(201);
    expect(await (await dav(davPath(name, "f.txt"), { method: "GET", basic: creds })).text()).toBe("x");
    expect((await dav(davPath(name, "f.txt"), { method: "PUT", basic: creds, body: "y" })).status).toBe(403);
    expect((await dav(davPath(name, "new.txt"), { method: "PUT", basic: creds, body: "y" })).status).toBe(403);
    expect((await dav(davPath(name, "sub"), { method: "MKCOL", basic: creds })).status).toBe(403);
    expect((await dav(davPath(name, "f.txt"), { method: "DELETE", basic: creds })).status).toBe(403);
    expect(await (await dav(davPath(top, name, "f.txt"), { method: "GET", basic: basicAdmin })).text()).toBe("x");
  });
});
