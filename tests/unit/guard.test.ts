import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { guardRedirect, runNavigationGuard, safeReturnPath } from "../../app/lib/guard";
import { clearTokens, sessionStore, setTokens, setUser, type Session } from "../../app/lib/session";
import { json, mockFetch, nowSeconds } from "./fetch-mock";

const url = (path: string) => new URL(path, "http://mam.test");
const admin = { id: "1", name: "Админ", is_admin: true, any_acls: true };
const editor = { id: "2", name: "Редактор", is_admin: false, any_acls: true };
const session = (user: Session["user"]): Session => ({
  tokens: user ? { bearer: "b", expire: null } : null,
  user,
  loggedOut: false,
});

describe("guardRedirect (the navigation rules once the access state is known)", () => {
  it.each([
    ["/sl/abc", session(null), null],
    ["/sl/abc", session(editor), null],
    ["/login", session(editor), "/mam"],
    ["/login?to=/jobs", session(admin), "/mam"],
    ["/login", session(null), null],
    ["/jobs", session(null), "/login?to=%2Fjobs"],
    ["/mam/g1?view=list", session(null), "/login?to=%2Fmam%2Fg1%3Fview%3Dlist"],
    ["/admin", session(null), "/login?to=%2Fadmin"],
    ["/admin", session(editor), "/mam"],
    ["/admin/user/7/actives", session(editor), "/mam"],
    ["/admin", session(admin), null],
    ["/administrator-notes", session(editor), null],
    ["/jobs", session(editor), null],
  ])("%s → %s", (path, state, expected) => {
    expect(guardRedirect(url(path), state)).toBe(expected);
  });
});

describe("safeReturnPath", () => {
  it.each([
    [null, "/mam"],
    ["", "/mam"],
    ["/jobs/5", "/jobs/5"],
    ["/search?q=кот", "/search?q=кот"],
    ["//evil.example/x", "/mam"],
    ["/\\evil.example", "/mam"],
    ["https://evil.example", "/mam"],
    ["/login?to=/jobs", "/mam"],
    ["/%09/evil.example", "/mam"],
    ["//evil", "/mam"],
    ["javascript:alert(1)", "/mam"],
  ])("%s → %s", (to, expected) => {
    expect(safeReturnPath(to)).toBe(expected);
  });
});

describe("runNavigationGuard", () => {
  beforeEach(() => clearTokens());
  afterEach(() => vi.unstubAllGlobals());

  it("lets the short-link preview through without asking the server", async () => {
    const calls = mockFetch({});
    expect(await runNavigationGuard(url("/sl/xyz"))).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it("tries the refresh cookie first when there is no bearer, then loads the user", async () => {
    const calls = mockFetch({
      "/api/auth/refresh": json({ bearer: "fromCookie", expire: nowSeconds() + 900 }),
      "/api/auth/whoami": json(editor),
    });
    expect(await runNavigationGuard(url("/jobs"))).toBeNull();
    expect(calls.map((c) => c.url)).toEqual(["/api/auth/refresh", "/api/auth/whoami"]);
    expect(calls[1].headers.get("Authorization")).toBe("Bearer fromCookie");
    expect(sessionStore.get().user?.name).toBe("Редактор");
  });

  it("sends the signed-out visitor to /login with the wanted path", async () => {
    mockFetch({ "/api/auth/refresh": json({ error: { code: "unauthorized", message: "Сеанс истёк" } }, 401) });
    expect(await runNavigationGuard(url("/jobs"))).toBe("/login?to=%2Fjobs");
  });

  it("keeps a fresh bearer and a known user without any request", async () => {
    setTokens({ bearer: "b", expire: nowSeconds() + 3600 });
    setUser(editor);
    const calls = mockFetch({});
    expect(await runNavigationGuard(url("/admin/groups"))).toBe("/mam");
    expect(calls).toHaveLength(0);
  });

  it("exchanges the one-time code of /login?token=X, loads the user with the bearer and goes to `to`", async () => {
    const expire = nowSeconds() + 900;
    const calls = mockFetch({ "/api/auth/exchange-token": json({ bearer: "issued", expire }), "/api/auth/whoami": json(admin) });
    expect(await runNavigationGuard(url("/login?token=handed&to=%2Fadmin"))).toBe("/admin");
    expect(calls[0].method).toBe("POST");
    expect(JSON.parse(String(calls[0].body))).toEqual({ token: "handed" });
    expect(calls[0].headers.get("Authorization")).toBeNull();
    expect(calls[1].headers.get("Authorization")).toBe("Bearer issued");
    expect(sessionStore.get().tokens).toEqual({ bearer: "issued", expire });
  });

  it("goes to /mam after /login?token=X without `to`, and back to the form for a refused code", async () => {
    mockFetch({
      "/api/auth/exchange-token": [
        json({ bearer: "ok", expire: nowSeconds() + 900 }),
        json({ error: { code: "unauthorized", message: "Код входа недействителен" } }, 401),
      ],
      "/api/auth/whoami": json(editor),
    });
    expect(await runNavigationGuard(url("/login?token=ok"))).toBe("/mam");
    clearTokens();
    expect(await runNavigationGuard(url("/login?token=used&to=%2Fjobs"))).toBe("/login?to=%2Fjobs");
    expect(sessionStore.get().tokens).toBeNull();
  });
});
