import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as auth from "../../shared/auth/contract";
import * as sso from "../../shared/sso/contract";
import { api, ApiError, call } from "../../app/lib/api";
import { errorMessage } from "../../app/lib/notify";
import { clearTokens, sessionStore, setTokens } from "../../app/lib/session";
import { json, mockFetch, nowSeconds } from "./fetch-mock";

beforeEach(() => clearTokens());
afterEach(() => vi.unstubAllGlobals());

describe("open calls (no bearer)", () => {
  // The browser goes without the bearer exactly where the route's own definition says `security: []`.
  it.each([auth.login, auth.refresh, auth.logout, sso.ssoProviders, sso.startSso, sso.ssoCallback, sso.exchangeToken])(
    "$method $path is open",
    (route) => expect(route.security).toEqual([]),
  );
  it.each([auth.getWhoami, auth.getUserAbilities, auth.entityAccess])("$method $path needs the bearer", (route) =>
    expect("security" in route).toBe(false),
  );
});

describe("api()", () => {
  it("sends the version header always, the bearer only to closed calls, and JSON bodies", async () => {
    setTokens({ bearer: "b1", expire: nowSeconds() + 3600 });
    const calls = mockFetch({ "/api/asset/create": json({ asset_id: "a1" }), "/api/auth/logout": json({ ok: true }) });

    expect(await api("/asset/create", { method: "POST", body: { asset_name: "x", asset_mime: "image/png" } })).toEqual({ asset_id: "a1" });
    await call(auth.logout);

    expect(calls[0].headers.get("X-Client-Version")).toBe("test-build");
    expect(calls[0].headers.get("Authorization")).toBe("Bearer b1");
    expect(calls[0].headers.get("Content-Type")).toBe("application/json");
    expect(calls[0].body).toBe('{"asset_name":"x","asset_mime":"image/png"}');
    expect(calls[1].headers.get("X-Client-Version")).toBe("test-build");
    expect(calls[1].headers.has("Authorization")).toBe(false);
  });

  it("adds query parameters and skips empty ones", async () => {
    const calls = mockFetch({ "/api/group/members/g1": json([]) });
    await api("/group/members/g1", { query: { skip: 0, take: 50, filter: undefined } });
    expect(calls[0].url).toBe("/api/group/members/g1?skip=0&take=50");
  });

  it("throws a failed response with its body and the server's message", async () => {
    const envelope = { error: { code: "not_found", message: "Файл не найден", requestId: "r-1" } };
    mockFetch({ "/api/asset/9": json(envelope, 404) });
    const error = (await api("/asset/9").catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.body).toEqual(envelope);
    expect(error.code).toBe("not_found");
    expect(error.requestId).toBe("r-1");
    expect(errorMessage(error)).toBe("Файл не найден");
  });

  it("words an error without a JSON body as 'HTTP {code}: {message}'", async () => {
    mockFetch({ "/api/asset/9": new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }) });
    const error = (await api("/asset/9").catch((e) => e)) as ApiError;
    expect(errorMessage(error)).toBe("HTTP 502: Bad Gateway");
  });

  it("reports an unreachable server in Russian", async () => {
    mockFetch({ "/api/asset/9": new TypeError("Failed to fetch") });
    const error = (await api("/asset/9").catch((e) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(errorMessage(error)).toBe("Нет связи с сервером");
  });

  it("clears the stored tokens on 401", async () => {
    setTokens({ bearer: "stale", expire: nowSeconds() + 3600 });
    mockFetch({ "/api/tasklist/current": json({ error: { code: "unauthorized", message: "Нужен вход" } }, 401) });
    await expect(api("/tasklist/current")).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get().tokens).toBeNull();
  });
});

describe("token refresh (margin 120 s)", () => {
  it("refreshes a bearer that expires within 120 s before the call, once for parallel calls", async () => {
    setTokens({ bearer: "old", expire: nowSeconds() + 60 });
    const calls = mockFetch({
      "/api/auth/refresh": json({ bearer: "new", expire: nowSeconds() + 900 }),
      "/api/tag/list": json([]),
    });
    await Promise.all([api("/tag/list"), api("/tag/list")]);
    expect(calls.filter((c) => c.url === "/api/auth/refresh")).toHaveLength(1);
    expect(calls.filter((c) => c.url === "/api/tag/list").map((c) => c.headers.get("Authorization"))).toEqual(["Bearer new", "Bearer new"]);
    expect(sessionStore.get().tokens?.bearer).toBe("new");
  });

  it("leaves a bearer with more than 120 s alone", async () => {
    setTokens({ bearer: "fresh", expire: nowSeconds() + 300 });
    const calls = mockFetch({ "/api/tag/list": json([]) });
    await api("/tag/list");
    expect(calls.map((c) => c.url)).toEqual(["/api/tag/list"]);
  });

  it("clears the tokens when the refresh fails", async () => {
    setTokens({ bearer: "old", expire: nowSeconds() + 10 });
    const calls = mockFetch({
      "/api/auth/refresh": json({ error: { code: "unauthorized", message: "Сеанс истёк" } }, 401),
      "/api/tag/list": json({ error: { code: "unauthorized", message: "Нужен вход" } }, 401),
    });
    await expect(api("/tag/list")).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get().tokens).toBeNull();
    expect(calls.find((c) => c.url === "/api/tag/list")?.headers.has("Authorization")).toBe(false);
  });
});

describe("errorMessage", () => {
  it("falls back to 'Неизвестная ошибка'", () => {
    expect(errorMessage({})).toBe("Неизвестная ошибка");
    expect(errorMessage(undefined)).toBe("Неизвестная ошибка");
    expect(errorMessage(new Error(""))).toBe("Неизвестная ошибка");
  });
  it("shows plain strings and Error messages as they are", () => {
    expect(errorMessage("Не удалось загрузить версию")).toBe("Не удалось загрузить версию");
    expect(errorMessage(new Error("Сбой"))).toBe("Сбой");
  });
});
