import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accessRules } from "../../db/schema";
import { call, db } from "./fixtures";
import { comment, fieldsOf, reviewWorld } from "./review.helpers";

/** «Входящие»: GET /api/review/inbox, POST /api/review/inbox/read (docs/decisions/061-review-and-approval.md). */

const inbox = async (bearer: string, query = "") => {
  const r = await call(`/api/review/inbox${query}`, { bearer });
  expect(r.status, r.text).toBe(200);
  return r.body as { items: any[]; total: number; unread: number };
};
const read = (bearer: string, json: unknown) => call("/api/review/inbox/read", { method: "POST", json, bearer });

describe("review inbox", () => {
  it("a mention and a request reach the addressee, newest first, with the comment's moment; nobody else sees them", async () => {
    const w = await reviewWorld();
    const cid = await comment(w.editor.bearer, {
      asset_id: w.id,
      body: `@${w.reader.login} глянь сюда`,
      at: { frame: 1800, fps_num: 30000, fps_den: 1001 },
    });
    const req = await call("/api/review/requests", {
      method: "POST",
      json: { asset_id: w.id, reviewers: [w.reader.id, w.editor.id] },
      bearer: w.editor.bearer,
    });
    expect(req.status, req.text).toBe(200);

    const mine = await inbox(w.reader.bearer);
    expect(mine.unread).toBe(2);
    expect(mine.total).toBe(2);
    const [request, mention] = mine.items;
    expect(request).toMatchObject({ kind: "request", asset_id: w.id, asset_name: w.name, group_id: w.group, version: 1, read: false });
    expect(request.request_id).toBe(req.body.request_id);
    expect(request.actor.user_id).toBe(w.editor.id);
    expect(mention).toMatchObject({ kind: "mention", comment_id: cid, body: `@${w.reader.login} глянь сюда`, version: 1, read: false });
    expect(mention.at).toMatchObject({ frame: 1800, fps_num: 30000, fps_den: 1001, timecode: "00:01:00:00" });
    expect(mention.at.seconds).toBeCloseTo(60.06, 9);
    expect(mention.ctime).toBeLessThanOrEqual(request.ctime);

    // The requester asked themselves too, and the author is never told of their own mention: nothing for the editor.
    expect((await inbox(w.editor.bearer)).items).toEqual([]);
    // Neither the other reader nor an outsider sees another's items.
    expect((await inbox(w.reader2.bearer)).total).toBe(0);
    expect((await inbox(w.outsider.bearer)).total).toBe(0);
  });

  it("a mention of a user who cannot read the file makes no item", async () => {
    const w = await reviewWorld();
    await comment(w.editor.bearer, { asset_id: w.id, body: `@${w.outsider.login} секрет` });
    const out = await inbox(w.outsider.bearer);
    expect(out.total).toBe(0);
    expect(JSON.stringify(out)).not.toContain(w.name);
  });

  it("items of an asset the user can no longer read are hidden and not counted; they come back with the right", async () => {
    const w = await reviewWorld();
    await comment(w.editor.bearer, { asset_id: w.id, body: `@${w.reader.login} раз` });
    expect((await inbox(w.reader.bearer)).unread).toBe(1);
    const rules = await db().select().from(accessRules).where(eq(accessRules.subjId, w.reader.id));
    await db().delete(accessRules).where(eq(accessRules.subjId, w.reader.id));
    const hidden = await inbox(w.reader.bearer);
    expect(hidden).toEqual({ items: [], total: 0, unread: 0 });
    // Marking everything read still answers only with what may be seen.
    const r = await read(w.reader.bearer, { all: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.unread).toBe(0);
    await db().insert(accessRules).values(rules);
    const back = await inbox(w.reader.bearer);
    expect(back.total).toBe(1);
    expect(back.items[0].read).toBe(true);
  });

  it("a deleted comment takes its mention along", async () => {
    const w = await reviewWorld();
    const cid = await comment(w.editor.bearer, { asset_id: w.id, body: `@${w.reader.login} временно` });
    expect((await inbox(w.reader.bearer)).total).toBe(1);
    const d = await call(`/api/review/comments/${cid}`, { method: "DELETE", bearer: w.editor.bearer });
    expect(d.status, d.text).toBe(200);
    expect((await inbox(w.reader.bearer)).total).toBe(0);
  });

  it("marks the caller's own items read by id or all; another's ids change nothing", async () => {
    const w = await reviewWorld();
    for (const n of [1, 2, 3]) await comment(w.editor.bearer, { asset_id: w.id, body: `@${w.reader.login} @${w.reader2.login} ${n}` });
    const mine = await inbox(w.reader.bearer);
    const theirs = await inbox(w.reader2.bearer);
    expect([mine.unread, theirs.unread]).toEqual([3, 3]);
    expect(mine.items.map((i) => i.body)).toEqual([3, 2, 1].map((n) => `@${w.reader.login} @${w.reader2.login} ${n}`));

    // reader2 tries reader's ids: nothing of reader's moves.
    const foreign = await read(w.reader2.bearer, { ids: mine.items.map((i) => i.item_id) });
    expect(foreign.status, foreign.text).toBe(200);
    expect(foreign.body).toEqual({ marked: 0, unread: 3 });
    expect((await inbox(w.reader.bearer)).unread).toBe(3);

    const one = await read(w.reader.bearer, { ids: [mine.items[1].item_id] });
    expect(one.body).toEqual({ marked: 1, unread: 2 });
    const after = await inbox(w.reader.bearer);
    expect(after.items.map((i) => i.read)).toEqual([false, true, false]);
    const again = await read(w.reader.bearer, { ids: [mine.items[1].item_id] });
    expect(again.body).toEqual({ marked: 0, unread: 2 });

    const all = await read(w.reader.bearer, { all: true });
    expect(all.body).toEqual({ marked: 2, unread: 0 });
    expect((await inbox(w.reader2.bearer)).unread).toBe(3);
  });

  it("pages with skip and take over the shown items", async () => {
    const w = await reviewWorld();
    for (const n of [1, 2, 3]) await comment(w.editor.bearer, { asset_id: w.id, body: `@${w.reader.login} ${n}` });
    const page = await inbox(w.reader.bearer, "?skip=1&take=1");
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.body)).toEqual([`@${w.reader.login} 2`]);
  });

  it("answers bad input with a 400 naming the field", async () => {
    const w = await reviewWorld();
    const get = async (q: string) => fieldsOf(await call(`/api/review/inbox${q}`, { bearer: w.reader.bearer }));
    expect(await get("?take=0")).toEqual(["take"]);
    expect(await get("?take=1000")).toEqual(["take"]);
    expect(await get("?skip=-1")).toEqual(["skip"]);
    expect(await get("?skip=x")).toEqual(["skip"]);
    const post = async (json: unknown) => fieldsOf(await read(w.reader.bearer, json));
    expect(await post({})).toEqual(["ids"]);
    expect(await post({ ids: ["nope"] })).toEqual(["ids.0"]);
    expect(await post({ ids: [] })).toEqual(["ids"]);
    expect(await post({ all: false })).toEqual(["all"]);
    expect(await post({ ids: [crypto.randomUUID()], all: true })).toEqual(["ids"]);
  });
});
