import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../functions/lib/env";
import { api, errorOf, login } from "./helpers";
import { json } from "./uploads.helpers";

/**
 * Other upload servers (docs/decisions/041-upload-servers.md): UPLOAD_SERVERS lists them after this Worker; the app's
 * pages may connect to them (CSP); a Worker answers the upload routes across origins only to the apps in
 * UPLOAD_APP_ORIGINS; a malformed list is refused like any wrong variable.
 */

const servers = JSON.stringify([
  { id: "msk", url: "https://ul-msk.example/api/ul/" },
  { id: "nsk", url: "https://ul-nsk.example/api/ul" },
]);
const withVars = (vars: Partial<Env>) => ({ ...(env as unknown as Env), ...vars });
let bearer: string;

beforeAll(async () => {
  bearer = (await login()).bearer;
});

describe("upload servers", () => {
  it("lists this Worker first, then the configured servers", async () => {
    const list = await json(api("/api/uldl-list", { bearer, env: withVars({ UPLOAD_SERVERS: servers }) }));
    expect(list).toEqual([
      { id: "worker", url: "http://mam.test/api/ul" },
      { id: "msk", url: "https://ul-msk.example/api/ul" },
      { id: "nsk", url: "https://ul-nsk.example/api/ul" },
    ]);
  });

  it("lets the app's pages connect to them, and to nothing else new", async () => {
    const page = await api("/login", { env: withVars({ UPLOAD_SERVERS: servers }) });
    const policy = page.headers.get("Content-Security-Policy") ?? "";
    // The disk helper on the user's machine is always there (decision 036).
    expect(policy).toMatch(/connect-src 'self' https:\/\/ul-msk\.example https:\/\/ul-nsk\.example http:\/\/127\.0\.0\.1:18981;/);
    const plain = await api("/login");
    expect(plain.headers.get("Content-Security-Policy")).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:18981;/);
  });

  it("refuses a malformed list with a 500 naming the variable", async () => {
    for (const bad of ['[{"id":"x"}]', "not json", '[{"id":"x","url":"ftp://files"}]']) {
      const res = await api("/api/health", { env: withVars({ UPLOAD_SERVERS: bad }) });
      expect(res.status).toBe(500);
      expect((await errorOf(res)).details?.map((d) => d.field)).toContain("UPLOAD_SERVERS");
    }
  });
});

describe("uploads from another app's page", () => {
  const app = "https://mam.example";
  const vars = withVars({ UPLOAD_APP_ORIGINS: `${app}, https://other.example` });
  const preflight = (origin: string, path = "/api/ul/start") =>
    api(path, {
      method: "OPTIONS",
      env: vars,
      headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type" },
    });

  it("answers an allowed app's preflight and calls with its origin", async () => {
    const res = await preflight(app);
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(app);
    expect(res.headers.get("Access-Control-Allow-Headers")).toMatch(/Authorization/);
    expect(res.headers.get("Access-Control-Allow-Methods")).toMatch(/PUT/);
    const ping = await api("/api/ul/ping", { env: vars, headers: { Origin: app } });
    expect(ping.status).toBe(200);
    expect(ping.headers.get("Access-Control-Allow-Origin")).toBe(app);
    const mine = await api("/api/ul", { bearer, env: vars, headers: { Origin: app } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Access-Control-Expose-Headers")).toBe("ETag");
  });

  it("gives no CORS to other origins, nor outside the upload routes", async () => {
    const stranger = await preflight("https://evil.example");
    expect(stranger.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const ping = await api("/api/ul/ping", { env: vars, headers: { Origin: "https://evil.example" } });
    expect(ping.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const elsewhere = await api("/api/auth/whoami", { bearer, env: vars, headers: { Origin: app } });
    expect(elsewhere.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const noneSet = await api("/api/ul/ping", { headers: { Origin: app } });
    expect(noneSet.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});
