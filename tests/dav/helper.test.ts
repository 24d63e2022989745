import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fuseProblem } from "../../helper/mount.mjs";
import { createHelper } from "../../helper/server.mjs";
import { davCall } from "./clients";

/** The disk helper's API (helper/): status, token, mount, CORS; a real `rclone mount` where FUSE works. */

const appOrigin = "http://app.example";

describe("disk helper", () => {
  const base = inject("davUrl");
  const admin = inject("davAdmin");
  const home = mkdtempSync(path.join(tmpdir(), "mam-helper-"));
  const helper = createHelper({ port: 0, home, origins: [appOrigin] });
  let url = "";
  const call = async (method: string, p: string, json?: unknown, origin = appOrigin) => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { Origin: origin, "Content-Type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as any };
  };

  beforeAll(async () => {
    url = `http://127.0.0.1:${await helper.listen()}`;
  });
  afterAll(() => helper.close());

  it("answers /status and the Private Network Access preflight to the app's origin only", async () => {
    const status = await call("GET", "/status");
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ version: expect.any(String), token: false, mounts: [] });
    expect(status.headers.get("Access-Control-Allow-Origin")).toBe(appOrigin);
    const pre = await fetch(`${url}/mount`, {
      method: "OPTIONS",
      headers: { Origin: appOrigin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Private-Network": "true" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("Access-Control-Allow-Private-Network")).toBe("true");
    expect((await call("GET", "/status", undefined, "http://evil.example")).status).toBe(403);
    expect((await call("POST", "/token", { token: "x", login: "y", server: base }, "http://evil.example")).status).toBe(403);
  });

  it("stores the credential in a file only its owner can read, and refuses a mount without one", async () => {
    const fresh = createHelper({ port: 0, home: mkdtempSync(path.join(tmpdir(), "mam-helper-")), origins: [appOrigin] });
    const freshUrl = `http://127.0.0.1:${await fresh.listen()}`;
    const noToken = await fetch(`${freshUrl}/mount`, {
      method: "POST",
      body: JSON.stringify({ group_id: "g", name: "n", url: "/dav/n/" }),
    });
    expect(((await noToken.json()) as { error: string }).error).toMatch(/пароль приложения/);
    await fresh.close();

    expect((await call("POST", "/token", { token: admin.password, login: admin.login, server: base })).status).toBe(200);
    const file = path.join(home, ".config", "mam-helper", "credentials.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ token: admin.password, login: admin.login, server: base });
    expect((await call("GET", "/status")).body.token).toBe(true);
  });

  it("mounts a group with rclone where FUSE works, and otherwise answers the reason in Russian", async () => {
    const group = `helper-${Date.now()}`;
    expect((await davCall(base, admin, "MKCOL", `/dav/${group}/`)).status).toBe(201);
    expect((await davCall(base, admin, "PUT", `/dav/${group}/hello.txt`, { body: "с диска" })).status).toBe(201);
    await call("POST", "/token", { token: admin.password, login: admin.login, server: base });
    const mounted = await call("POST", "/mount", { group_id: "g1", name: group, url: `/dav/${group}/` });
    const problem = fuseProblem();
    if (problem) {
      console.warn(`FUSE is not usable here (${problem}): the real rclone mount is not exercised on this machine`);
      expect(mounted.body).toEqual({ error: problem });
      return;
    }
    expect(mounted.body).toEqual({ path: path.join(home, "МАМ", group) });
    expect(readFileSync(path.join(home, "МАМ", group, "hello.txt"), "utf8")).toBe("с диска");
    expect((await call("GET", "/status")).body.mounts).toEqual([{ group_id: "g1", name: group, path: path.join(home, "МАМ", group) }]);
    expect((await call("POST", "/unmount", { group_id: "g1" })).body).toEqual({ ok: true });
  });
});
