import { once } from "node:events";
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fuseProblem, startRclone } from "../../helper/mount.mjs";
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

  /** A raw request with the Host header as given (fetch sets its own). */
  const withHost = (port: number, host: string, p = "/status") =>
    new Promise<number>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path: p, headers: { Host: host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });

  it("answers only requests addressed to 127.0.0.1 or localhost on its port (a rebound host name gets 403)", async () => {
    const port = Number(new URL(url).port);
    expect(await withHost(port, `127.0.0.1:${port}`)).toBe(200);
    expect(await withHost(port, `localhost:${port}`)).toBe(200);
    expect(await withHost(port, `evil.example:${port}`)).toBe(403);
    expect(await withHost(port, "evil.example")).toBe(403);
    expect(await withHost(port, `127.0.0.1:${port + 1}`)).toBe(403);
    expect(await withHost(port, `localhost.evil.example:${port}`)).toBe(403);
  });

  it("mounts only /dav/ folders of the saved server, into a plain folder name; refusals are 4xx", async () => {
    const asked: string[] = [];
    const strict = createHelper({
      port: 0,
      home: mkdtempSync(path.join(tmpdir(), "mam-helper-")),
      origins: [appOrigin],
      backend: () => "rclone",
      mount: async (m) => {
        asked.push(m.url);
        return undefined;
      },
    });
    const strictUrl = `http://127.0.0.1:${await strict.listen()}`;
    const post = async (p: string, json: unknown) => {
      const res = await fetch(`${strictUrl}${p}`, { method: "POST", headers: { Origin: appOrigin }, body: JSON.stringify(json) });
      return { status: res.status, body: (await res.json()) as { path?: string; error?: string } };
    };
    try {
      expect((await post("/token", { token: "t", login: "u", server: "file:///etc/passwd" })).status).toBe(400);
      expect((await post("/token", { token: "t", login: "u", server: base })).status).toBe(200);
      const elsewhere = [
        "http://evil.example/dav/x/",
        `${base.replace("127.0.0.1", "localhost")}/dav/x/`,
        "/api/auth/whoami",
        "/dav/../api/auth/whoami",
        "/dav/%2e%2e/api/auth/whoami",
        "/davx/",
        "//evil.example/dav/x/",
        `${base.replace("://", "://u:p@")}/dav/x/`,
      ];
      for (const u of elsewhere) {
        const r = await post("/mount", { group_id: "g", name: "Папка", url: u });
        expect([r.status, u]).toEqual([403, u]);
        expect(r.body.error).toMatch(/\/dav\//);
      }
      for (const name of [".", "..", " .. ", "a/b", "a\\b", "a\nb", "a\u0000b", "a\u007fb", ""]) {
        const r = await post("/mount", { group_id: "g", name, url: "/dav/x/" });
        expect([r.status, name]).toEqual([400, name]);
      }
      expect(asked).toEqual([]);
      const ok = await post("/mount", { group_id: "g", name: "Фильм 2026", url: "/dav/x/" });
      expect(ok).toMatchObject({ status: 200, body: { path: expect.stringMatching(/МАМ\/Фильм 2026$/) } });
      expect(asked).toEqual([`${base}/dav/x/`]);
    } finally {
      await strict.close();
    }
  });

  it("a failed mount is an error status with the reason, not a 200", async () => {
    const failing = createHelper({
      port: 0,
      home: mkdtempSync(path.join(tmpdir(), "mam-helper-")),
      origins: [appOrigin],
      backend: () => "rclone",
      mount: async () => {
        throw new Error("Нет доступа к /dev/fuse: FUSE недоступен на этой машине");
      },
    });
    const failingUrl = `http://127.0.0.1:${await failing.listen()}`;
    try {
      await fetch(`${failingUrl}/token`, { method: "POST", body: JSON.stringify({ token: "t", login: "u", server: base }) });
      const res = await fetch(`${failingUrl}/mount`, {
        method: "POST",
        body: JSON.stringify({ group_id: "g", name: "n", url: "/dav/n/" }),
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: "Нет доступа к /dev/fuse: FUSE недоступен на этой машине" });
    } finally {
      await failing.close();
    }
  });

  it("never puts the password on a command line: rclone gets it on stdin and in its environment", async () => {
    const bin = mkdtempSync(path.join(tmpdir(), "mam-fake-rclone-"));
    const log = path.join(bin, "log");
    // A stand-in rclone that records every command line and what the mount finds in its environment.
    writeFileSync(
      path.join(bin, "rclone"),
      `#!/bin/sh
echo "$*" >> "${log}.argv"
if [ "$1" = obscure ]; then read -r p; echo "obscured:$p"; exit 0; fi
printf '%s|%s' "$RCLONE_WEBDAV_USER" "$RCLONE_WEBDAV_PASS" > "${log}.env"
`,
    );
    chmodSync(path.join(bin, "rclone"), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath}`;
    const password = "app-password-Секрет-42";
    try {
      const child = startRclone({ url: `${base}/dav/x/`, dir: path.join(bin, "mnt"), login: "anna", password });
      if (child.exitCode === null) await once(child, "exit");
    } finally {
      process.env.PATH = savedPath;
    }
    const argv = readFileSync(`${log}.argv`, "utf8");
    expect(argv).toContain("obscure -");
    expect(argv).toContain(`mount :webdav: ${path.join(bin, "mnt")}`);
    expect(argv).not.toContain(password);
    expect(argv).not.toContain("obscured:");
    expect(readFileSync(`${log}.env`, "utf8")).toBe(`anna|obscured:${password}`);
  });
});
