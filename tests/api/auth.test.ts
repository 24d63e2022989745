import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { getDb } from "../../functions/lib/db";
import { bearerKey } from "../../functions/lib/keys";
import { adminCredentials, api, createUser, errorOf, freshIp, login, refreshCookieOf } from "./helpers";

describe("POST /api/auth/login", () => {
  it("signs the first admin in with a bearer, an expiry and a strict httpOnly refresh cookie", async () => {
    const res = await api("/api/auth/login", { method: "POST", json: adminCredentials });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { bearer: string; expire: number };
    expect(body.bearer.split(".")).toHaveLength(3);
    expect(body.expire).toBeGreaterThan(Date.now() / 1000);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("mam_refresh="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);

    const who = await api("/api/auth/whoami", { bearer: body.bearer });
    expect(await who.json()).toMatchObject({ name: "Администратор", login: "admin", is_admin: true, any_acls: false });
  });

  it.each([
    ["user", { passwd: "x" }],
    ["passwd", { user: "admin" }],
    ["user", { user: "", passwd: "x" }],
    ["passwd", { user: "admin", passwd: 42 }],
  ])("answers 400 naming the field %s", async (field, json) => {
    const res = await api("/api/auth/login", { method: "POST", json });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("validation");
    expect(error.details?.map((d) => d.field)).toContain(field);
    expect(error.message).toContain(`«${field}»`);
    expect(error.requestId).toBeTruthy();
  });

  it("answers 400 for a body that is not JSON", async () => {
    const res = await api("/api/auth/login", { method: "POST", body: "{oops", headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/JSON/);
  });

  it("answers the same 401 for a wrong password and for an unknown login", async () => {
    const wrong = await api("/api/auth/login", { method: "POST", json: { user: "admin", passwd: "nope" } });
    const unknown = await api("/api/auth/login", { method: "POST", json: { user: "nobody", passwd: "nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await errorOf(wrong), await errorOf(unknown)];
    expect(a.code).toBe(b.code);
    expect(a.message).toBe(b.message);
  });

  it("treats the login case-insensitively", async () => {
    await expect(login({ user: "ADMIN", passwd: adminCredentials.passwd })).resolves.toHaveProperty("bearer");
  });

  it("refuses a disabled user, even with the right password, and creates no session", async () => {
    await createUser({ login: "disabled-user", password: "pw-disabled-1", enabled: false });
    const res = await api("/api/auth/login", { method: "POST", json: { user: "disabled-user", passwd: "pw-disabled-1" } });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toHaveLength(0);
  });

  it("throttles repeated failures for one login with 429 and Retry-After, even with the right password", async () => {
    await createUser({ login: "victim", password: "right-password" });
    for (let i = 0; i < 5; i++) {
      const res = await api("/api/auth/login", { method: "POST", json: { user: "victim", passwd: `guess-${i}` } });
      expect(res.status).toBe(401);
    }
    const blocked = await api("/api/auth/login", { method: "POST", json: { user: "victim", passwd: "right-password" } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await errorOf(blocked)).code).toBe("rate_limited");
  });

  it("throttles one address spraying many logins", async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) {
      const res = await api("/api/auth/login", { method: "POST", json: { user: `spray-${i}`, passwd: "x" }, ip });
      expect(res.status).toBe(401);
    }
    const blocked = await api("/api/auth/login", { method: "POST", json: adminCredentials, ip });
    expect(blocked.status).toBe(429);
    // Another address is not affected.
    expect((await api("/api/auth/login", { method: "POST", json: adminCredentials })).status).toBe(200);
  });
});

describe("refresh and logout", () => {
  it("rotates the refresh cookie and issues a bearer that works", async () => {
    const first = await login();
    const res = await api("/api/auth/refresh", { cookie: first.cookie });
    expect(res.status).toBe(200);
    const next = refreshCookieOf(res);
    expect(next).not.toBe(first.cookie);
    const { bearer } = (await res.json()) as { bearer: string };
    expect((await api("/api/auth/whoami", { bearer })).status).toBe(200);
  });

  it("revokes the whole session family when a rotated-away refresh token comes back", async () => {
    const first = await login();
    const rotated = await api("/api/auth/refresh", { cookie: first.cookie });
    const current = refreshCookieOf(rotated);
    const { bearer } = (await rotated.json()) as { bearer: string };

    const replay = await api("/api/auth/refresh", { cookie: first.cookie });
    expect(replay.status).toBe(401);
    // The legitimate holder's newer token and bearer are dead too.
    expect((await api("/api/auth/refresh", { cookie: current })).status).toBe(401);
    expect((await api("/api/auth/whoami", { bearer })).status).toBe(401);
  });

  it("answers 401 without a cookie or with a made-up one", async () => {
    expect((await api("/api/auth/refresh")).status).toBe(401);
    expect((await api("/api/auth/refresh", { cookie: `mam_refresh=${crypto.randomUUID()}.abc` })).status).toBe(401);
  });

  it("logout revokes the session: its bearer and refresh cookie stop working", async () => {
    const s = await login();
    const res = await api("/api/auth/logout", { cookie: s.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join()).toMatch(/mam_refresh=;/);
    expect((await api("/api/auth/whoami", { bearer: s.bearer })).status).toBe(401);
    expect((await api("/api/auth/refresh", { cookie: s.cookie })).status).toBe(401);
  });

  it("a user disabled after signing in can neither use the bearer nor refresh", async () => {
    const userId = await createUser({ login: "soon-disabled", password: "pw-soon-1" });
    const s = await login({ user: "soon-disabled", passwd: "pw-soon-1" });
    await getDb(env).update(users).set({ enabled: false }).where(eq(users.userId, userId));
    expect((await api("/api/auth/whoami", { bearer: s.bearer })).status).toBe(401);
    expect((await api("/api/auth/refresh", { cookie: s.cookie })).status).toBe(401);
  });
});

describe("protected routes", () => {
  const protectedPaths = ["/api/auth/whoami", "/api/auth/user-abilities", "/api/auth/list-acl-perms", "/api/openapi.json"];

  it.each(protectedPaths)("%s answers 401 in the error envelope without a bearer", async (path) => {
    const res = await api(path);
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe("unauthorized");
  });

  it("answers 401 to a forged bearer (signed with another key)", async () => {
    const s = await login();
    const sid = JSON.parse(atob(s.bearer.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).sid;
    const forged = await new SignJWT({ sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("someone")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-the-server-secret"));
    expect((await api("/api/auth/whoami", { bearer: forged })).status).toBe(401);
    expect((await api("/api/auth/whoami", { bearer: "garbage" })).status).toBe(401);
  });

  it("answers 401 to an expired bearer", async () => {
    const s = await login();
    const claims = JSON.parse(atob(s.bearer.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    const expired = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(await bearerKey(env.JWT_SECRET));
    expect((await api("/api/auth/whoami", { bearer: expired })).status).toBe(401);
  });

  it("answers 404 in the envelope for an unknown API path", async () => {
    const s = await login();
    const res = await api("/api/no-such-thing", { bearer: s.bearer });
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe("not_found");
  });

  it("lists the ten permission values and the user's abilities", async () => {
    const s = await login();
    const perms = await (await api("/api/auth/list-acl-perms", { bearer: s.bearer })).json();
    expect(perms).toEqual(["deny", "read", "update", "create", "delete", "acl", "group", "superuser", "download", "execute"]);
    const abilities = await (await api("/api/auth/user-abilities", { bearer: s.bearer })).json();
    expect(abilities).toMatchObject({ is_admin: true, admin_area: true, is_robot: false });
  });

  it("generates an OpenAPI 3.1 document from the routes", async () => {
    const s = await login();
    const doc = (await (await api("/api/openapi.json", { bearer: s.bearer })).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/auth/login", "/api/auth/refresh", "/api/health"]));
  });
});

describe("open routes", () => {
  it("serves health, version and SSO providers without a bearer", async () => {
    const health = await api("/api/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", d1: "ok", r2: "ok" });
    const version = (await (await api("/api/version")).json()) as { version: string };
    expect(version.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await (await api("/api/auth/sso-providers")).json()).toEqual([]);
  });
});
