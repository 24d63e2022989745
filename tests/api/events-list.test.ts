import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";

/**
 * POST /api/global-events/list (docs/decisions/043-events-list.md): filters, cursor paging that stays put while
 * events arrive, and the access rule (an event on something the caller cannot read never shows).
 */

const list = async (json: Record<string, unknown>, bearer?: string) => {
  const r = await call("/api/global-events/list", { method: "POST", json, bearer: bearer ?? (await admin()) });
  if (r.status !== 200) throw new Error(`list: ${r.status} ${r.text}`);
  return r.body as {
    items: { event_id: string; kind: string; entity_id: string; entity_name: string; user_name: string }[];
    next_cursor: string | null;
  };
};

let top: string;
let readable: string;
let hidden: string;
let reader: Person;

beforeAll(async () => {
  top = await mkGroup(VIRTUAL_ROOT, uniq("Журнал"));
  readable = await mkGroup(top, uniq("Открытая"));
  hidden = await mkGroup(top, uniq("Закрытая"));
  reader = await mkPerson();
  await grant(reader.id, readable, ["read"]);
  for (let i = 0; i < 3; i++) {
    await call(`/api/group/update/${readable}`, { method: "PATCH", json: { group_name: uniq("Открытая") }, bearer: await admin() });
    await call(`/api/group/update/${hidden}`, { method: "PATCH", json: { group_name: uniq("Закрытая") }, bearer: await admin() });
  }
});

describe("the events list", () => {
  it("filters by entity and kind prefix, newest first, with names", async () => {
    const page = await list({ entity: { id: readable, type: "group" } });
    expect(page.items.map((i) => i.kind)).toEqual(["group.updated", "group.updated", "group.updated", "group.created"]);
    expect(page.items.every((i) => i.entity_id === readable)).toBe(true);
    expect(page.items[0].entity_name).toMatch(/^Открытая/);
    expect(page.items[0].user_name).toBeTruthy();
    const created = await list({ entity: { id: readable }, kinds: ["group.created"] });
    expect(created.items.map((i) => i.kind)).toEqual(["group.created"]);
    // A prefix is a whole segment: "group" matches group.*, "grou" matches nothing.
    expect((await list({ entity: { id: readable }, kinds: ["group"] })).items).toHaveLength(4);
    expect((await list({ entity: { id: readable }, kinds: ["grou"] })).items).toHaveLength(0);
  });

  it("pages by cursor without repeats or gaps while new events arrive", async () => {
    const first = await list({ entity: { id: hidden }, take: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toMatch(/^\d+$/);
    // Events written after the first page do not shift the next one.
    await call(`/api/group/update/${hidden}`, { method: "PATCH", json: { group_name: uniq("Закрытая") }, bearer: await admin() });
    const second = await list({ entity: { id: hidden }, take: 2, cursor: first.next_cursor });
    const all = (await list({ entity: { id: hidden } })).items.map((i) => i.event_id);
    // The newest is the one written meanwhile; then exactly the rows of the two pages, in order.
    expect(all.slice(1, 5)).toEqual([...first.items, ...second.items].map((i) => i.event_id));
    expect(second.next_cursor).toBe(null);
  });

  it("shows a user only events on what they can read", async () => {
    const own = await list({ kinds: ["group"], take: 200 }, reader.bearer);
    expect(own.items.some((i) => i.entity_id === readable)).toBe(true);
    expect(own.items.some((i) => i.entity_id === hidden || i.entity_id === top)).toBe(false);
    expect((await list({ entity: { id: hidden } }, reader.bearer)).items).toEqual([]);
  });

  it("refuses bad input with the field named", async () => {
    for (const [json, field] of [
      [{ take: 500 }, "take"],
      [{ cursor: "abc" }, "cursor"],
      [{ kinds: ["Asset!"] }, "kinds.0"],
      [{ from: 10, to: 5 }, "to"],
      [{ user: "not-a-uuid" }, "user"],
    ] as const) {
      const r = await call("/api/global-events/list", { method: "POST", json, bearer: await admin() });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe("an asset's history", () => {
  it("holds the events on the asset and on its share links, for whoever can read it", async () => {
    const bearer = await admin();
    const made = await call("/api/asset/create", {
      method: "POST",
      json: { asset_name: "История.jpg", asset_mime: "image/jpeg", in_group: readable },
      bearer,
    });
    const assetId = made.body.asset_id as string;
    await call(`/api/asset/${assetId}`, { method: "PATCH", json: { asset_name: "История-2.jpg" }, bearer });
    const link = await call(`/api/sl/create/${assetId}`, { method: "POST", json: { acl: ["view"] }, bearer });
    expect(link.status, link.text).toBe(200);
    const other = await call("/api/asset/create", {
      method: "POST",
      json: { asset_name: "Другое.jpg", asset_mime: "image/jpeg", in_group: readable },
      bearer,
    });

    const history = await list({ asset: assetId }, reader.bearer);
    const kinds = history.items.map((i) => i.kind);
    expect(kinds).toEqual(expect.arrayContaining(["asset.create", "asset.update", "share-link.create"]));
    expect(history.items.every((i) => i.entity_id !== other.body.asset_id)).toBe(true);
    // The link's id is its secret: a reader sees that a link was made, not which; an admin sees the id.
    expect(history.items.find((i) => i.kind === "share-link.create")?.entity_id).toBe(null);
    expect((await list({ asset: assetId })).items.find((i) => i.kind === "share-link.create")?.entity_id).toBe(
      String(link.body ?? link.text).replace(/"/g, ""),
    );
  });

  it("shows a link's recipients only to admins and the link's creator, in the history and the link list", async () => {
    const place = await mkGroup(top, uniq("Получатели"));
    const sharer = await mkPerson();
    const manager = await mkPerson();
    await grant(sharer.id, place, ["acl"]);
    await grant(manager.id, place, ["acl"]);
    await grant(reader.id, place, ["read"]);
    const made = await call("/api/asset/create", {
      method: "POST",
      json: { asset_name: "Получатели.jpg", asset_mime: "image/jpeg", in_group: place },
      bearer: await admin(),
    });
    const assetId = made.body.asset_id as string;
    const guest = "guest-of-the-creator@example.com";
    const link = await call(`/api/sl/create/${assetId}`, {
      method: "POST",
      json: { acl: ["view"], email: [guest] },
      bearer: sharer.bearer,
    });
    expect(link.status, link.text).toBe(200);

    const history = async (bearer: string) => JSON.stringify((await list({ asset: assetId }, bearer)).items);
    const links = async (bearer: string) => {
      const r = await call(`/api/sl/for-entity/${assetId}`, { bearer });
      expect(r.status, r.text).toBe(200);
      return JSON.stringify(r.body);
    };
    for (const who of [sharer.bearer, await admin()]) {
      expect(await history(who)).toContain(guest);
      expect(await links(who)).toContain(guest);
    }
    for (const who of [reader.bearer, manager.bearer]) {
      const seen = await history(who);
      // The reader still sees that a link was made and mailed, and whether the mail went.
      expect(seen).toContain("share-link.create");
      expect(seen).toContain("share-link.email");
      expect(seen).not.toContain(guest);
      expect(await links(who)).not.toContain(guest);
    }
  });

  it("answers 404 for an asset the caller cannot read", async () => {
    const made = await call("/api/asset/create", {
      method: "POST",
      json: { asset_name: "Скрытое.jpg", asset_mime: "image/jpeg", in_group: hidden },
      bearer: await admin(),
    });
    const r = await call("/api/global-events/list", { method: "POST", json: { asset: made.body.asset_id }, bearer: reader.bearer });
    expect(r.status).toBe(404);
  });
});
