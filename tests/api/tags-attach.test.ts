import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { entityTags, events } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { fieldsOf, mkAssets, mkTag } from "./tags.helpers";

/** Bulk attach/detach: update on every object, all or nothing, idempotent; the tags show on asset and group answers. */

let bearer: string;
let editor: Person;
let outsider: Person;
let writable: string;
let readOnly: string;
let mine: string[];
let theirs: string;
let t: { a: string; b: string; c: string };
let names: { a: string; b: string; c: string };

const post = (path: string, json: unknown, as = editor.bearer) => call(path, { method: "POST", json, bearer: as });
const assetTags = async (id: string) => (await call(`/api/asset/${id}`, { bearer })).body.tags;
const groupTags = async (id: string) => (await call(`/api/group/get/${id}`, { bearer })).body.group_tags;
const pairs = (ids: string[]) => db().select().from(entityTags).where(inArray(entityTags.entityId, ids)).all();

beforeAll(async () => {
  bearer = await admin();
  const root = await mkGroup(VIRTUAL_ROOT, uniq("Теги"));
  writable = await mkGroup(root, "Можно");
  readOnly = await mkGroup(root, "Только чтение");
  mine = await mkAssets(writable, 2);
  [theirs] = await mkAssets(readOnly, 1);
  editor = await mkPerson();
  outsider = await mkPerson();
  await grant(editor.id, writable, ["read", "update"]);
  await grant(editor.id, readOnly, ["read"]);
  const base = uniq("Метка");
  names = { a: `${base} а`, b: `${base} Б`, c: `${base} в` };
  t = { a: await mkTag(names.a), b: await mkTag(names.b), c: await mkTag(names.c) };
});

describe("attach", () => {
  it("puts tags on assets and groups; answers show [{tag_id, tag_name}] by name; one event per object", async () => {
    const r = await post("/api/tags/attach", {
      tag_ids: [t.b, t.a],
      entities: [...mine.map((id) => ({ id, type: "asset" })), { id: writable, type: "group" }],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ok: true, count: 6 });
    const expected = [
      { tag_id: t.a, tag_name: names.a },
      { tag_id: t.b, tag_name: names.b },
    ];
    expect(await assetTags(mine[0])).toEqual(expected);
    expect(await assetTags(mine[1])).toEqual(expected);
    expect(await groupTags(writable)).toEqual(expected);
    // Group lists carry them too (they select the same columns).
    const search = await call(`/api/group/search?q=${encodeURIComponent("Можно")}`, { bearer: editor.bearer });
    expect(search.body.find((g: { group_id: string }) => g.group_id === writable).group_tags).toEqual(expected);
    expect(await assetTags(theirs)).toEqual([]);
    const ev = await db()
      .select()
      .from(events)
      .where(and(eq(events.kind, "tag.attach"), inArray(events.entityId, [...mine, writable])))
      .all();
    expect(ev.map((e) => [e.entityId, e.entityType, e.userId]).sort()).toEqual(
      [
        [mine[0], "asset", editor.id],
        [mine[1], "asset", editor.id],
        [writable, "group", editor.id],
      ].sort(),
    );
  });

  it("is idempotent: attaching again adds nothing and writes no event", async () => {
    const before = await db().select().from(events).where(eq(events.kind, "tag.attach")).all();
    const r = await post("/api/tags/attach", { tag_ids: [t.a, t.a], entities: [{ id: mine[0], type: "asset" }] });
    expect(r.body).toEqual({ ok: true, count: 0 });
    expect(await db().select().from(events).where(eq(events.kind, "tag.attach")).all()).toHaveLength(before.length);
  });

  it("is all or nothing: one object without update (403), one hidden (404), an unknown tag (404) change nothing", async () => {
    const forbidden = await post("/api/tags/attach", {
      tag_ids: [t.c],
      entities: [
        { id: mine[0], type: "asset" },
        { id: theirs, type: "asset" },
      ],
    });
    expect(forbidden.status).toBe(403);
    const hidden = await post(
      "/api/tags/attach",
      {
        tag_ids: [t.c],
        entities: [
          { id: mine[0], type: "asset" },
          { id: crypto.randomUUID(), type: "asset" },
        ],
      },
      editor.bearer,
    );
    expect(hidden.status).toBe(404);
    const stranger = await post("/api/tags/attach", { tag_ids: [t.c], entities: [{ id: mine[0], type: "asset" }] }, outsider.bearer);
    expect(stranger.status).toBe(404);
    const unknownTag = await post("/api/tags/attach", { tag_ids: [t.c, crypto.randomUUID()], entities: [{ id: mine[0], type: "asset" }] });
    expect(unknownTag.status).toBe(404);
    expect(fieldsOf(unknownTag)).toEqual(["tag_ids.1"]);
    expect((await pairs([mine[0]])).filter((p) => p.tagId === t.c)).toEqual([]);
  });

  it("validates the body, naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ entities: [{ id: mine[0], type: "asset" }] }, "tag_ids"],
      [{ tag_ids: [], entities: [{ id: mine[0], type: "asset" }] }, "tag_ids"],
      [{ tag_ids: ["x"], entities: [{ id: mine[0], type: "asset" }] }, "tag_ids.0"],
      [{ tag_ids: [t.a], entities: [] }, "entities"],
      [{ tag_ids: [t.a], entities: [{ id: mine[0], type: "user" }] }, "entities.0.type"],
      [{ tag_ids: [t.a], entities: [{ id: mine[0], type: "group" }] }, "entities.0.type"],
      [{ tag_ids: [t.a], entities: [{ id: VIRTUAL_ROOT, type: "group" }] }, "entities.0.id"],
    ];
    for (const [json, field] of cases) {
      const r = await post("/api/tags/attach", json, bearer);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(fieldsOf(r), JSON.stringify(json)).toEqual([field]);
    }
  });
});

describe("detach, rename, delete", () => {
  it("detach takes tags off, idempotently; needs update too", async () => {
    expect((await post("/api/tags/detach", { tag_ids: [t.a], entities: [{ id: theirs, type: "asset" }] })).status).toBe(403);
    const r = await post("/api/tags/detach", { tag_ids: [t.a], entities: mine.map((id) => ({ id, type: "asset" })) });
    expect(r.body).toEqual({ ok: true, count: 2 });
    expect((await post("/api/tags/detach", { tag_ids: [t.a], entities: mine.map((id) => ({ id, type: "asset" })) })).body.count).toBe(0);
    expect(await assetTags(mine[0])).toEqual([{ tag_id: t.b, tag_name: names.b }]);
    expect(await groupTags(writable)).toHaveLength(2);
    const ev = await db()
      .select()
      .from(events)
      .where(and(eq(events.kind, "tag.detach"), inArray(events.entityId, mine)))
      .all();
    expect(ev).toHaveLength(2);
  });

  it("a rename shows everywhere; a delete takes the tag off everything", async () => {
    const renamed = uniq("Переименовано");
    await call(`/api/tags/change/${t.b}`, { method: "PATCH", json: { tag_name: renamed }, bearer });
    expect(await assetTags(mine[1])).toEqual([{ tag_id: t.b, tag_name: renamed }]);
    await call(`/api/tags/delete/${t.b}`, { method: "DELETE", bearer });
    expect(await assetTags(mine[1])).toEqual([]);
    expect(await groupTags(writable)).toEqual([{ tag_id: t.a, tag_name: names.a }]);
  });

  it("deleting an asset drops its tags", async () => {
    const [gone] = await mkAssets(writable, 1);
    await post("/api/tags/attach", { tag_ids: [t.c], entities: [{ id: gone, type: "asset" }] });
    expect(await pairs([gone])).toHaveLength(1);
    expect((await call(`/api/asset/${gone}`, { method: "DELETE", bearer })).status).toBe(200);
    expect(await pairs([gone])).toEqual([]);
  });
});
