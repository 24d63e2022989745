import { describe, expect, it } from "vitest";
import { pageBearer } from "../../functions/auth/page-session";
import { mkGroup, uniq, VIRTUAL_ROOT } from "./fixtures";
import { adminCredentials, api, login } from "./helpers";

/**
 * The page-session cookie (docs/decisions/022): the server, not a page script, writes the bearer into an
 * httpOnly cookie for the page loaders; the API never takes it; a cookie-authenticated write needs the CSRF check.
 */

const setCookie = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
const cookieValue = (cookie: string | undefined) => cookie?.split(";")[0].split("=").slice(1).join("=");

describe("the page-session cookie follows the session", () => {
  it("sign-in sets it: the bearer, httpOnly, SameSite=Lax, Path=/, for the bearer's lifetime", async () => {
    const res = await api("/api/auth/login", { method: "POST", json: { user: "admin", passwd: "admin-test-password" } });
    const { bearer } = (await res.json()) as { bearer: string };
    const cookie = setCookie(res, "mam_page")!;
    expect(cookieValue(cookie)).toBe(bearer);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/; Secure/i);
    const maxAge = Number(/Max-Age=(\d+)/i.exec(cookie)?.[1]);
    expect(maxAge).toBeGreaterThan(800);
    expect(maxAge).toBeLessThanOrEqual(900);
  });

  it("is Secure over https", async () => {
    const res = await api("https://mam.test/api/auth/login", { method: "POST", json: adminCredentials });
    expect(setCookie(res, "mam_page")).toMatch(/; Secure/i);
  });

  it("a refresh replaces it with the new bearer; logout clears both cookies", async () => {
    const session = await login();
    const refreshed = await api("/api/auth/refresh", { cookie: session.cookie });
    const { bearer } = (await refreshed.json()) as { bearer: string };
    expect(cookieValue(setCookie(refreshed, "mam_page"))).toBe(bearer);
    const rotated = setCookie(refreshed, "mam_refresh")!.split(";")[0];

    const out = await api("/api/auth/logout", { cookie: rotated });
    expect(setCookie(out, "mam_page")).toMatch(/Max-Age=0/i);
    expect(setCookie(out, "mam_refresh")).toMatch(/Max-Age=0/i);
  });

  it("a refused refresh clears it too", async () => {
    const session = await login();
    await api("/api/auth/refresh", { cookie: session.cookie });
    // The same secret again: reuse, the session ends.
    const reused = await api("/api/auth/refresh", { cookie: session.cookie });
    expect(reused.status).toBe(401);
    expect(setCookie(reused, "mam_page")).toMatch(/Max-Age=0/i);
  });
});

describe("only page loaders read it", () => {
  it("the API refuses a request that brings the page cookie without an Authorization header", async () => {
    const { bearer } = await login();
    const res = await api("/api/auth/whoami", { cookie: `mam_page=${bearer}` });
    expect(res.status).toBe(401);
    const write = await api("/api/group/create", {
      method: "POST",
      json: { group_name: uniq(), parent: VIRTUAL_ROOT },
      cookie: `mam_page=${bearer}`,
    });
    expect(write.status).toBe(401);
  });

  it("a page renders the user's first page with it, and nothing once the session has ended", async () => {
    const session = await login();
    const name = uniq("Группа-страницы");
    await mkGroup(VIRTUAL_ROOT, name);
    expect(await (await api("/mam", { cookie: `mam_page=${session.bearer}` })).text()).toContain(name);
    await api("/api/auth/logout", { cookie: session.cookie });
    expect(await (await api("/mam", { cookie: `mam_page=${session.bearer}` })).text()).not.toContain(name);
  });

  it("a write authenticated by the cookie must come from a page of this origin (CSRF)", () => {
    const request = (method: string, headers: Record<string, string> = {}) =>
      new Request("https://mam.example/mam", { method, headers: { Cookie: "other=1; mam_page=the-bearer", ...headers } });
    expect(pageBearer(request("GET"))).toBe("the-bearer");
    expect(pageBearer(request("GET", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }))).toBe("the-bearer");
    expect(pageBearer(request("POST", { Origin: "https://mam.example", "Sec-Fetch-Site": "same-origin" }))).toBe("the-bearer");
    expect(pageBearer(request("POST"))).toBeNull();
    expect(pageBearer(request("POST", { Origin: "https://evil.example" }))).toBeNull();
    expect(pageBearer(request("POST", { Origin: "null" }))).toBeNull();
    expect(pageBearer(request("DELETE", { Origin: "https://mam.example", "Sec-Fetch-Site": "cross-site" }))).toBeNull();
    expect(pageBearer(new Request("https://mam.example/mam"))).toBeNull();
  });
});
