import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events, taxonMembers } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { fieldsOf, mkAssets } from "./tags.helpers";

/** Filing objects under taxa: update on the object, idempotent; list-members shows only what the caller can read. */

let bearer: string;
let editor: Person;
let writable: string;
let mine: string;
let readable: string;
let hidden: string;
let tx: { top: string; child: string; grand: string };

const add = (taxon: string, objectId: string, as = editor.bearer) =>
  call(`/api/taxonomy/add-member/${taxon}`, { method: "POST", json: { objectId }, bearer: as });
const del = (taxon: string, objectId: string, as = editor.bearer) =>
  call(`/api/taxonomy/del-member/${taxon}`, { method: "POST", json: { objectId }, bearer: as });
const members = (taxon: string, query = "", as = editor.bearer) => call(`/api/taxonomy/list-members/${taxon}${query}`, { bearer: as });

beforeAll(async () => {
  bearer = await admin();
  const root = await mkGroup(VIRTUAL_ROOT, uniq("Таксоны"));
  writable = await mkGroup(root, "Б-можно");
  const readOnly = await mkGroup(root, "Чтение");
  const priv = await mkGroup(VIRTUAL_ROOT, uniq("Закрыто"));
  [mine] = await mkAssets(writable, 1);
  [readable] = await mkAssets(readOnly, 1);
  [hidden] = await mkAssets(priv, 1);
  await call(`/api/asset/${mine}`, { method: "PATCH", json: { asset_name: "А-моё.jpg" }, bearer });
  await call(`/api/asset/${readable}`, { method: "PATCH", json: { asset_name: "В-чужое.jpg" }, bearer });
  editor = await mkPerson();
  await grant(editor.id, writable, ["read", "update"]);
  await grant(editor.id, readOnly, ["read"]);
  const top = uniq("Тема");
  const grand = (await call("/api/taxonomy/create", { method: "POST", json: { path: `${top}/Раздел/Подраздел` }, bearer })).body.taxon_id;
  const nodes: { taxon_id: string; parent: string | null }[] = (await call("/api/taxonomy/tree", { bearer })).body;
  const child = nodes.find((n) => n.taxon_id === grand)!.parent!;
  tx = { top: nodes.find((n) => n.taxon_id === child)!.parent!, child, grand };
});

describe("add-member and del-member", () => {
  it("files an asset or a group the caller may update, once (idempotent, one event)", async () => {
    expect((await add(tx.child, mine)).body).toEqual({ ok: true });
    expect((await add(tx.child, mine)).body).toEqual({ ok: true });
    expect((await add(tx.grand, writable)).status).toBe(200);
    const ev = await db()
      .select()
      .from(events)
      .where(and(eq(events.kind, "taxon.member-add"), eq(events.entityId, mine)))
      .all();
    expect(ev.map((e) => [e.entityType, e.data])).toEqual([["asset", { taxon_id: tx.child }]]);
  });

  it("needs update on the object (403 when readable, 404 when hidden) and an existing taxon", async () => {
    expect((await add(tx.grand, readable)).status).toBe(403);
    expect((await add(tx.grand, hidden)).status).toBe(404);
    expect((await add(crypto.randomUUID(), mine)).status).toBe(404);
    expect((await del(tx.child, readable)).status).toBe(403);
  });

  it("validates objectId and the query, naming the field", async () => {
    const missing = await call(`/api/taxonomy/add-member/${tx.top}`, { method: "POST", json: {}, bearer });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toEqual(["objectId"]);
    expect(fieldsOf(await add(tx.top, "nope", bearer))).toEqual(["objectId"]);
    expect(fieldsOf(await add(tx.top, VIRTUAL_ROOT, bearer))).toEqual(["objectId"]);
    expect(fieldsOf(await members(tx.top, "?descendants=maybe"))).toEqual(["descendants"]);
    expect(fieldsOf(await members(tx.top, "?take=0"))).toEqual(["take"]);
  });
});

describe("list-members", () => {
  beforeAll(async () => {
    // The admin files what the editor may only read, and what it may not see at all.
    await add(tx.grand, readable, bearer);
    await add(tx.top, hidden, bearer);
    await add(tx.grand, mine, bearer);
  });

  it("lists the taxon's own members, hiding what the caller cannot read (from total too)", async () => {
    expect((await members(tx.top)).body).toEqual({ total: 0, items: [] });
    expect((await members(tx.top, "", bearer)).body).toEqual({
      total: 1,
      items: [{ entity_id: hidden, entity_type: "asset", name: "Кадр 0.jpg" }],
    });
    expect((await members(tx.child)).body.items.map((m: { entity_id: string }) => m.entity_id)).toEqual([mine]);
  });

  it("with descendants=true, the whole subtree, each object once, by name, paged", async () => {
    const all = await members(tx.top, "?descendants=true");
    expect(all.body).toEqual({
      total: 3,
      items: [
        { entity_id: mine, entity_type: "asset", name: "А-моё.jpg" },
        { entity_id: writable, entity_type: "group", name: "Б-можно" },
        { entity_id: readable, entity_type: "asset", name: "В-чужое.jpg" },
      ],
    });
    const page = await members(tx.top, "?descendants=true&skip=2&take=2");
    expect(page.body).toEqual({ total: 3, items: [all.body.items[2]] });
    expect((await members(tx.top, "?descendants=true", bearer)).body.total).toBe(4);
  });

  it("for-entity lists an object's taxa to those who can read it", async () => {
    const r = await call(`/api/taxonomy/for-entity/${mine}`, { bearer: editor.bearer });
    expect(r.body.map((t: { taxon_id: string }) => t.taxon_id).sort()).toEqual([tx.child, tx.grand].sort());
    expect((await call(`/api/taxonomy/for-entity/${hidden}`, { bearer: editor.bearer })).status).toBe(404);
  });

  it("del-member takes it out, idempotently", async () => {
    expect((await del(tx.child, mine)).body).toEqual({ ok: true });
    expect((await del(tx.child, mine)).body).toEqual({ ok: true });
    expect((await members(tx.child)).body.total).toBe(0);
    const ev = await db()
      .select()
      .from(events)
      .where(and(eq(events.kind, "taxon.member-del"), eq(events.entityId, mine)))
      .all();
    expect(ev).toHaveLength(1);
  });

  it("a purged group leaves no membership behind", async () => {
    const g = await mkGroup(writable, uniq("Временная"));
    expect((await add(tx.top, g, bearer)).status).toBe(200);
    const rows = () => db().select().from(taxonMembers).where(eq(taxonMembers.objectId, g)).all();
    expect(await rows()).toHaveLength(1);
    await call(`/api/group/delete/${g}`, { method: "DELETE", bearer });
    expect((await members(tx.top, "", bearer)).body.items.map((m: { entity_id: string }) => m.entity_id)).not.toContain(g);
    await call("/api/group/purge", { method: "POST", json: { ids: [g] }, bearer });
    expect((await call(`/api/taxonomy/add-member/${tx.top}`, { method: "POST", json: { objectId: g }, bearer })).status).toBe(404);
    expect(await rows()).toEqual([]);
  });
});
