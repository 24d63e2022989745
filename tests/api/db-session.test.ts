import { describe, expect, it } from "vitest";
import { BOOKMARK_HEADER } from "../../functions/lib/db-session";
import { api } from "./helpers";
import { admin, uniq, VIRTUAL_ROOT } from "./fixtures";

/** D1 sessions (functions/lib/db-session.ts): the bookmark a client sends back makes it read its own writes. */
const bookmarkShape = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

describe("database session bookmarks", () => {
  it("a write answers its bookmark, and a read that sends it back sees the write and a bookmark no older", async () => {
    const bearer = await admin();
    const name = uniq();
    const created = await api("/api/group/create", { method: "POST", bearer, json: { parent: VIRTUAL_ROOT, group_name: name } });
    expect(created.status).toBe(200);
    const written = created.headers.get(BOOKMARK_HEADER);
    expect(written).toMatch(bookmarkShape);
    const { group_id } = (await created.json()) as { group_id: string };

    const read = await api(`/api/group/get/${group_id}`, { bearer, headers: { [BOOKMARK_HEADER]: written as string } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { group_name: string }).group_name).toBe(name);
    const after = read.headers.get(BOOKMARK_HEADER) as string;
    expect(after).toMatch(bookmarkShape);
    expect(after >= (written as string)).toBe(true);
  });

  it("reads without a bookmark get one too, signed in or not", async () => {
    const roots = await api("/api/group/roots", { bearer: await admin() });
    expect(roots.headers.get(BOOKMARK_HEADER)).toMatch(bookmarkShape);
    const health = await api("/api/health");
    expect(health.status).toBe(200);
    expect(health.headers.get(BOOKMARK_HEADER)).toMatch(bookmarkShape);
  });

  it("a malformed bookmark is a 400 naming the header", async () => {
    const r = await api("/api/group/roots", { bearer: await admin(), headers: { [BOOKMARK_HEADER]: "not-a-bookmark" } });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { message: string; details: { field: string }[] } };
    expect(body.error.message).toContain(BOOKMARK_HEADER);
    expect(body.error.details[0].field).toBe(BOOKMARK_HEADER);
  });
});
