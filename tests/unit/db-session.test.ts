import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionStart } from "../../functions/lib/db-session";
import { api } from "../../app/lib/api";
import { json, mockFetch } from "./fetch-mock";

afterEach(() => vi.unstubAllGlobals());

describe("where a request's database session starts", () => {
  it("reads go to any copy, writes to the primary, and a client's bookmark wins over both", () => {
    expect(sessionStart("GET", "/api/group/contents/x", null)).toBe("first-unconstrained");
    expect(sessionStart("POST", "/api/search/query", null)).toBe("first-unconstrained");
    expect(sessionStart("POST", "/api/group/create", null)).toBe("first-primary");
    expect(sessionStart("PATCH", "/api/asset/x", null)).toBe("first-primary");
    const bookmark = "00000000-00000012-00000000-00000000000000000000000000000000";
    expect(sessionStart("GET", "/api/group/roots", bookmark)).toBe(bookmark);
  });
});

describe("the browser's bookmark", () => {
  it("is sent back after an answer carried one, and an older answer does not replace a newer one", async () => {
    const older = "00000000-00000010-00000000-00000000000000000000000000000000";
    const newer = "00000000-00000020-00000000-00000000000000000000000000000000";
    const withBookmark = (bookmark: string) => () => {
      const r = json({ ok: true });
      r.headers.set("X-D1-Bookmark", bookmark);
      return r;
    };
    const calls = mockFetch({ "/api/version": [withBookmark(newer), withBookmark(older), json({ ok: true })] });
    await api("/version");
    await api("/version");
    await api("/version");
    expect(calls[1].headers.get("X-D1-Bookmark")).toBe(newer);
    expect(calls[2].headers.get("X-D1-Bookmark")).toBe(newer);
  });
});
