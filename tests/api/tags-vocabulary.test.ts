import { beforeAll, describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { eq } from "drizzle-orm";
import { admin, call, db, mkPerson, uniq, type Person } from "./fixtures";
import { fieldsOf, mkTag } from "./tags.helpers";

/** The tag vocabulary: names unique ignoring case and ё/е, prefix-then-contains search, who may change it. */

let bearer: string;
let user: Person;
const post = (path: string, json: unknown, as = bearer) => call(path, { method: "POST", json, bearer: as });

beforeAll(async () => {
  bearer = await admin();
  user = await mkPerson();
});

describe("create and uniqueness", () => {
  it("any signed-in user creates a tag; the name is stored tidied and an event is written", async () => {
    const name = uniq("Ёлка");
    const r = await post("/api/tags/create", { tag_name: `  ${name}   праздник ` }, user.bearer);
    expect(r.status).toBe(200);
    const listed = await post("/api/tags/list-by-ids", { ids: [r.body.tag_id] });
    expect(listed.body).toEqual([{ tag_id: r.body.tag_id, tag_name: `${name} праздник` }]);
    const ev = await db().select().from(events).where(eq(events.entityId, r.body.tag_id)).all();
    expect(ev.map((e) => e.kind)).toEqual(["tag.create"]);
  });

  it("refuses a name that differs only in case, ё/е or spacing with a 409 naming tag_name", async () => {
    const name = uniq("Ёжик");
    await mkTag(name);
    for (const clash of [name.toUpperCase(), name.replace("Ё", "Е"), name.replace("Ё", "е").toLowerCase(), ` ${name} `]) {
      const r = await post("/api/tags/create", { tag_name: clash }, user.bearer);
      expect(r.status, clash).toBe(409);
      expect(r.body.error.message).toContain(`Тег «${name}» уже есть`);
      expect(fieldsOf(r)).toEqual(["tag_name"]);
    }
  });

  it("validates tag_name: missing, empty, too long, control characters", async () => {
    for (const json of [{}, { tag_name: "   " }, { tag_name: "я".repeat(101) }, { tag_name: "a\u0001b" }, { tag_name: 5 }]) {
      const r = await post("/api/tags/create", json);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(fieldsOf(r)).toEqual(["tag_name"]);
    }
  });
});

describe("rename and delete", () => {
  it("only admins rename and delete; a rename keeps uniqueness; delete answers 404 afterwards", async () => {
    const id = await mkTag(uniq("Старое"));
    const other = uniq("Другое");
    await mkTag(other);
    expect((await call(`/api/tags/change/${id}`, { method: "PATCH", json: { tag_name: "x" }, bearer: user.bearer })).status).toBe(403);
    expect((await call(`/api/tags/delete/${id}`, { method: "DELETE", bearer: user.bearer })).status).toBe(403);
    const clash = await call(`/api/tags/change/${id}`, { method: "PATCH", json: { tag_name: other.toLowerCase() }, bearer });
    expect(clash.status).toBe(409);
    const renamed = uniq("Новое");
    const r = await call(`/api/tags/change/${id}`, { method: "PATCH", json: { tag_name: renamed }, bearer });
    expect(r.body).toEqual({ tag_id: id, tag_name: renamed });
    // Renaming to itself in another case is not a clash with itself.
    const recased = await call(`/api/tags/change/${id}`, { method: "PATCH", json: { tag_name: renamed.toUpperCase() }, bearer });
    expect(recased.status).toBe(200);
    expect((await call(`/api/tags/delete/${id}`, { method: "DELETE", bearer })).body).toEqual({ ok: true });
    expect((await call(`/api/tags/delete/${id}`, { method: "DELETE", bearer })).status).toBe(404);
    expect((await call(`/api/tags/change/${id}`, { method: "PATCH", json: { tag_name: "y" }, bearer })).status).toBe(404);
    expect((await post("/api/tags/list-by-ids", { ids: [id] })).body).toEqual([]);
  });
});

describe("list, list-by-ids and list-by-filter", () => {
  let base: string;
  beforeAll(async () => {
    base = uniq("Поиск").toLowerCase();
    // Created out of order: answers come by name.
    for (const n of [`${base} ежевика`, `Про ${base} ёж`, `${base} Ёж`, `${base} ель`, `Ещё ${base} ЕЖИ`]) await mkTag(n);
  });

  it("finds by prefix first, then by substring, ignoring case and ё/е, each part by name", async () => {
    const r = await post("/api/tags/list-by-filter", { q: `${base.toUpperCase()} ЕЖ`, skip: 0, take: 10 }, user.bearer);
    expect(r.status).toBe(200);
    expect(r.body.map((t: { tag_name: string }) => t.tag_name)).toEqual([
      `${base} Ёж`,
      `${base} ежевика`,
      `Ещё ${base} ЕЖИ`,
      `Про ${base} ёж`,
    ]);
  });

  it("pages through both parts as one list", async () => {
    const q = `${base} ё`;
    const all = (await post("/api/tags/list-by-filter", { q, skip: 0, take: 50 })).body.map((t: { tag_name: string }) => t.tag_name);
    expect(all).toHaveLength(5);
    const pages: string[] = [];
    for (let skip = 0; skip < 6; skip += 2) {
      const r = await post("/api/tags/list-by-filter", { q, skip, take: 2 });
      pages.push(...r.body.map((t: { tag_name: string }) => t.tag_name));
    }
    expect(pages).toEqual(all);
    expect((await post("/api/tags/list-by-filter", { q, skip: 4, take: 2 })).body).toHaveLength(1);
    expect((await post("/api/tags/list-by-filter", { q, skip: 9, take: 2 })).body).toEqual([]);
  });

  it("list pages by name and list-by-ids keeps the order asked, leaving unknown ids out", async () => {
    const first = (await call("/api/tags/list?take=3", { bearer: user.bearer })).body;
    expect(first).toHaveLength(3);
    const next = (await call("/api/tags/list?skip=2&take=3", { bearer: user.bearer })).body;
    expect(next[0]).toEqual(first[2]);
    const ids = [first[1].tag_id, crypto.randomUUID(), first[0].tag_id];
    expect((await post("/api/tags/list-by-ids", { ids })).body).toEqual([first[1], first[0]]);
  });

  it("validates the filter and the paging, naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ skip: 0, take: 5 }, "q"],
      [{ q: "  " }, "q"],
      [{ q: "a", take: 0 }, "take"],
      [{ q: "a", take: 201 }, "take"],
      [{ q: "a", skip: -1 }, "skip"],
    ];
    for (const [json, field] of cases) {
      const r = await post("/api/tags/list-by-filter", json);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(fieldsOf(r)).toEqual([field]);
    }
    expect(fieldsOf(await call("/api/tags/list?take=abc", { bearer }))).toEqual(["take"]);
    expect(fieldsOf(await post("/api/tags/list-by-ids", { ids: ["nope"] }))).toEqual(["ids.0"]);
  });
});
