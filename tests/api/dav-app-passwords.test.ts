import { describe, expect, it } from "vitest";
import { call, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { dav, hrefsOf } from "./dav.helpers";

/** App passwords: a personal secret for WebDAV (the only way in for single-sign-on users), shown once, revocable. */

describe("app passwords", () => {
  it("sign a user in to WebDAV until revoked, and are never listed with their secret", async () => {
    const p = await mkPerson();
    const group = uniq("Пароли");
    await grant(p.id, await mkGroup(VIRTUAL_ROOT, group), ["read"]);
    const made = await call("/api/auth/app-passwords", { method: "POST", bearer: p.bearer, json: { name: "ноутбук" } });
    expect(made.status).toBe(200);
    expect(made.body.password).toMatch(/^mamapp_/);
    const creds = { login: p.login, password: made.body.password as string };
    const res = await dav("/dav/", { method: "PROPFIND", basic: creds, headers: { Depth: "1" } });
    expect(res.status).toBe(207);
    expect(hrefsOf(await res.text())).toEqual(["/dav/", `/dav/${group}/`]);

    const list = await call("/api/auth/app-passwords", { bearer: p.bearer });
    expect(list.body).toEqual([{ id: made.body.id, name: "ноутбук", ctime: made.body.ctime, last_used: expect.any(Number) }]);
    expect(list.text).not.toContain(made.body.password);

    const other = await mkPerson();
    expect((await call(`/api/auth/app-passwords/${made.body.id}`, { method: "DELETE", bearer: other.bearer })).status).toBe(404);
    expect((await call(`/api/auth/app-passwords/${made.body.id}`, { method: "DELETE", bearer: p.bearer })).status).toBe(200);
    // A new credential each time, so no remembered check stands in for the revoked password.
    expect(
      (await dav("/dav/", { method: "PROPFIND", basic: { ...creds, login: p.login.toUpperCase() }, headers: { Depth: "0" } })).status,
    ).toBe(401);
  });

  it("refuse another user's login and an empty name", async () => {
    const p = await mkPerson();
    const other = await mkPerson();
    const made = await call("/api/auth/app-passwords", { method: "POST", bearer: p.bearer, json: { name: "x" } });
    expect(
      (await dav("/dav/", { method: "PROPFIND", basic: { login: other.login, password: made.body.password }, headers: { Depth: "0" } }))
        .status,
    ).toBe(401);
    const bad = await call("/api/auth/app-passwords", { method: "POST", bearer: p.bearer, json: { name: " " } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("name");
  });

  it("dav-path names a group as the caller's WebDAV tree shows it", async () => {
    const top = uniq("Верх");
    const topId = await mkGroup(VIRTUAL_ROOT, top);
    const mid = await mkGroup(topId, "середина");
    const leaf = await mkGroup(mid, "лист");
    const { admin } = await import("./fixtures");
    expect((await call(`/api/auth/dav-path/${leaf}`, { bearer: await admin() })).body.path).toBe(
      `/dav/${encodeURIComponent(top)}/${encodeURIComponent("середина")}/${encodeURIComponent("лист")}/`,
    );
    const p = await mkPerson();
    await grant(p.id, mid, ["read"]);
    expect((await call(`/api/auth/dav-path/${leaf}`, { bearer: p.bearer })).body.path).toBe(
      `/dav/${encodeURIComponent("середина")}/${encodeURIComponent("лист")}/`,
    );
    expect((await call(`/api/auth/dav-path/${topId}`, { bearer: p.bearer })).status).toBe(404);
  });
});
