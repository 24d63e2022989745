import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch, nowSeconds } from "./fetch-mock";

/**
 * The session of several tabs of one browser (docs/decisions/022): each tab keeps its bearer in memory,
 * nothing goes to storage or to a script-readable cookie, refreshes never overlap (the server would take a
 * second use of one refresh secret for theft and end the session), and a new bearer or a sign-out reaches
 * the other tabs over the BroadcastChannel.
 */

type Api = typeof import("../../app/lib/api");
type SessionModule = typeof import("../../app/lib/session");
interface Tab {
  api: Api;
  session: SessionModule;
}

/** A Web Lock manager like a browser's: one holder per name, the next one granted in a later task. */
function fakeLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const before = tails.get(name) ?? Promise.resolve();
      const run = before.then(() => new Promise((r) => setTimeout(r, 0))).then(callback);
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

const written: string[] = [];

async function openTab(): Promise<Tab> {
  vi.resetModules();
  return { api: await import("../../app/lib/api"), session: await import("../../app/lib/session") };
}

const bearerOf = (tab: Tab) => tab.session.sessionStore.get().tokens?.bearer;
/** Waits until the tab's bearer is `expected`: messages between tabs arrive in a later task. */
const bearerArrives = (tab: Tab, expected: string | undefined) => vi.waitFor(() => expect(bearerOf(tab)).toBe(expected));

/**
 * GET /api/auth/refresh that takes a while, as over a network (or until `held` settles); counts calls and
 * notes any overlap.
 */
function slowRefresh(held?: Promise<void>) {
  const seen = { calls: 0, inFlight: 0, overlapped: false };
  vi.stubGlobal("fetch", async (url: string) => {
    if (url !== "/api/auth/refresh") throw new Error(`unexpected fetch ${url}`);
    seen.calls++;
    if (++seen.inFlight > 1) seen.overlapped = true;
    await (held ?? new Promise((r) => setTimeout(r, 30)));
    seen.inFlight--;
    return json({ bearer: `bearer-${seen.calls}`, expire: nowSeconds() + 900 });
  });
  return seen;
}

beforeEach(() => {
  written.length = 0;
  const storage = {
    getItem: () => null,
    setItem: (key: string) => written.push(`localStorage:${key}`),
    removeItem: () => undefined,
  };
  vi.stubGlobal("window", { location: { origin: "http://mam.test", protocol: "http:" } });
  vi.stubGlobal("localStorage", storage);
  vi.stubGlobal("document", {
    set cookie(value: string) {
      written.push(`cookie:${value}`);
    },
  });
  vi.stubGlobal("navigator", { locks: fakeLocks() });
});
afterEach(() => vi.unstubAllGlobals());

describe("tabs of one browser", () => {
  it("refresh one after the other, never at once, and both stay signed in", async () => {
    const [a, b] = [await openTab(), await openTab()];
    // Both tabs hold a bearer that is about to expire: each wants a refresh of its own.
    a.session.setTokens({ bearer: "a-old", expire: nowSeconds() + 30 });
    b.session.setTokens({ bearer: "b-old", expire: nowSeconds() + 30 });
    // Each takes the other's, as tabs do.
    await bearerArrives(a, "b-old");
    await bearerArrives(b, "a-old");
    const seen = slowRefresh();
    const [okA, okB] = await Promise.all([a.api.refreshTokens(), b.api.refreshTokens()]);
    expect([okA, okB]).toEqual([true, true]);
    expect(seen.overlapped).toBe(false);
    expect(a.session.sessionStore.get().tokens?.bearer).toMatch(/^bearer-\d$/);
    expect(b.session.sessionStore.get().tokens?.bearer).toMatch(/^bearer-\d$/);
    expect(written).toEqual([]);
  });

  it("a bearer one tab got reaches the other, which then needs no refresh of its own", async () => {
    const [a, b] = [await openTab(), await openTab()];
    b.session.setTokens({ bearer: "old", expire: nowSeconds() + 30 });
    await bearerArrives(a, "old");
    const calls = mockFetch({ "/api/auth/refresh": json({ bearer: "new", expire: nowSeconds() + 900 }), "/api/tag/list": json([]) });
    await a.api.refreshTokens();
    await bearerArrives(b, "new");
    await b.api.api("/tag/list");
    expect(calls.map((c) => c.url)).toEqual(["/api/auth/refresh", "/api/tag/list"]);
    expect(calls[1].headers.get("Authorization")).toBe("Bearer new");
  });

  it("a tab that waited for the lock takes the bearer shared meanwhile instead of rotating again", async () => {
    const [a, b] = [await openTab(), await openTab()];
    let answer!: (value: undefined) => void;
    const seen = slowRefresh(new Promise((r) => (answer = r)));
    // Two tabs opened at once (nothing in memory yet): B asks while A's refresh is on its way.
    const first = a.api.refreshTokens();
    await vi.waitFor(() => expect(seen.inFlight).toBe(1));
    const second = b.api.refreshTokens();
    answer(undefined);
    await Promise.all([first, second]);
    expect(seen.calls).toBe(1);
    expect(a.session.sessionStore.get().tokens?.bearer).toBe("bearer-1");
    expect(b.session.sessionStore.get().tokens?.bearer).toBe("bearer-1");
  });

  it("a sign-out in one tab signs the others out; a user of another bearer is forgotten", async () => {
    const [a, b] = [await openTab(), await openTab()];
    const jwt = (sub: string) => `h.${btoa(JSON.stringify({ sub, exp: nowSeconds() + 900 }))}.s`;
    a.session.setTokens({ bearer: jwt("u1"), expire: nowSeconds() + 900 });
    await bearerArrives(b, jwt("u1"));
    b.session.setUser({ id: "u1", name: "Первый", is_admin: false, any_acls: false });
    a.session.setTokens({ bearer: `${jwt("u1")}x`, expire: nowSeconds() + 900 });
    await bearerArrives(b, `${jwt("u1")}x`);
    expect(b.session.sessionStore.get().user?.id).toBe("u1");
    a.session.setTokens({ bearer: jwt("u2"), expire: nowSeconds() + 900 });
    await bearerArrives(b, jwt("u2"));
    expect(b.session.sessionStore.get().user).toBeNull();

    a.session.clearTokens({ loggedOut: true });
    await bearerArrives(b, undefined);
    expect(written).toEqual([]);
  });
});
