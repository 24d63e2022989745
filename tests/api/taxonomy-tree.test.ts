import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events, taxonMembers } from "../../db/schema";
import { admin, call, db, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { fieldsOf, mkAssets } from "./tags.helpers";

/** The taxonomy tree: create by path (idempotent), rename and move without cycles, delete with the subtree. */

let bearer: string;
let user: Person;
type Node = { taxon_id: string; name: string; parent: string | null; depth: number };

const create = (path: string, as = bearer) => call("/api/taxonomy/create", { method: "POST", json: { path }, bearer: as });
const change = (id: string, json: unknown) => call(`/api/taxonomy/change/${id}`, { method: "PATCH", json, bearer });
const tree = async (): Promise<Node[]> => (await call("/api/taxonomy/tree", { bearer: user.bearer })).body;
const byId = async (id: string) => (await tree()).find((n) => n.taxon_id === id);

beforeAll(async () => {
  bearer = await admin();
  user = await mkPerson();
});

describe("create by path", () => {
  it("creates the missing taxa along the path and answers the last one; again, it creates nothing", async () => {
    const top = uniq("Природа");
    const r = await create(`${top}/Животные/Кошки`);
    expect(r.status, r.text).toBe(200);
    const leaf = r.body.taxon_id;
    const nodes = await tree();
    const kitten = nodes.find((n) => n.taxon_id === leaf)!;
    const animals = nodes.find((n) => n.taxon_id === kitten.parent)!;
    const nature = nodes.find((n) => n.taxon_id === animals.parent)!;
    expect([nature.name, animals.name, kitten.name]).toEqual([top, "Животные", "Кошки"]);
    expect([nature.parent, nature.depth, animals.depth, kitten.depth]).toEqual([null, 1, 2, 3]);
    // Parents come before children.
    const at = (id: string) => nodes.findIndex((n) => n.taxon_id === id);
    expect(at(nature.taxon_id) < at(animals.taxon_id) && at(animals.taxon_id) < at(kitten.taxon_id)).toBe(true);

    const count = nodes.length;
    // The same path in another case, with ё/е and stray slashes, finds the same taxa.
    const again = await create(`/${top.toUpperCase()}//животные/ кошки /`);
    expect(again.body.taxon_id).toBe(leaf);
    expect(await tree()).toHaveLength(count);
    // A longer path reuses the prefix and adds one.
    const deeper = await create(`${top}/Животные/Кошки/Котята`);
    expect((await byId(deeper.body.taxon_id))?.parent).toBe(leaf);
    expect(await tree()).toHaveLength(count + 1);
    const ev = await db()
      .select()
      .from(events)
      .where(inArray(events.entityId, [nature.taxon_id, animals.taxon_id, leaf, deeper.body.taxon_id]))
      .all();
    expect(ev.map((e) => e.kind)).toEqual(["taxon.create", "taxon.create", "taxon.create", "taxon.create"]);
  });

  it("two creates of the same new path at once make one taxon", async () => {
    const path = `${uniq("Гонка")}/Лист`;
    const [a, b] = await Promise.all([create(path), create(path)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.taxon_id).toBe(b.body.taxon_id);
  });

  it("only admins create; the path is validated, naming the field", async () => {
    expect((await create(uniq("Чужое"), user.bearer)).status).toBe(403);
    for (const [path, field] of [
      ["", "path"],
      ["///", "path"],
      [`a/${"я".repeat(101)}`, "path.1"],
      [Array.from({ length: 33 }, (_, i) => `у${i}`).join("/"), "path"],
      [5, "path"],
    ] as const) {
      const r = await create(path as string);
      expect(r.status, String(path)).toBe(400);
      expect(fieldsOf(r)).toEqual([field]);
    }
  });
});

describe("change and delete", () => {
  it("renames; a sibling's name (any case) is a 409 naming the field", async () => {
    const top = uniq("Города");
    const moscow = (await create(`${top}/Москва`)).body.taxon_id;
    await create(`${top}/Тверь`);
    const clash = await change(moscow, { name: "ТВЕРЬ" });
    expect(clash.status).toBe(409);
    expect(fieldsOf(clash)).toEqual(["name"]);
    const r = await change(moscow, { name: "Москва-река" });
    expect(r.body).toMatchObject({ taxon_id: moscow, name: "Москва-река", depth: 2 });
    expect((await call(`/api/taxonomy/change/${moscow}`, { method: "PATCH", json: { name: "x" }, bearer: user.bearer })).status).toBe(403);
  });

  it("moves a subtree (depths follow) and refuses a move into itself or its descendants", async () => {
    const a = uniq("А");
    const leaf = (await create(`${a}/Б/В`)).body.taxon_id;
    const b = (await byId(leaf))!.parent!;
    const top = (await byId(b))!.parent!;
    expect((await change(top, { parent: leaf })).status).toBe(400);
    const self = await change(top, { parent: top });
    expect(self.status).toBe(400);
    expect(fieldsOf(self)).toEqual(["parent"]);
    expect(fieldsOf(await change(top, { parent: crypto.randomUUID() }))).toEqual(["parent"]);
    // Б to the top level, then under another tree: its child moves along.
    expect((await change(b, { parent: null })).body).toMatchObject({ parent: null, depth: 1 });
    expect(await byId(leaf)).toMatchObject({ parent: b, depth: 2 });
    const other = (await create(`${uniq("Другое")}/Ветка`)).body.taxon_id;
    expect((await change(b, { parent: other })).body).toMatchObject({ parent: other, depth: 3 });
    expect(await byId(leaf)).toMatchObject({ depth: 4 });
    // The moved subtree still answers descendants (paths were rewritten).
    const [asset] = await mkAssets(await mkGroup(VIRTUAL_ROOT, uniq("Файлы")), 1);
    await call(`/api/taxonomy/add-member/${leaf}`, { method: "POST", json: { objectId: asset }, bearer });
    expect((await call(`/api/taxonomy/list-members/${other}?descendants=true`, { bearer })).body.total).toBe(1);
    expect(fieldsOf(await change(b, {}))).toEqual(["(тело запроса)"]);
  });

  it("deletes a taxon with its subtree and their memberships; admins only", async () => {
    const leaf = (await create(`${uniq("Удалить")}/Внутри`)).body.taxon_id;
    const top = (await byId(leaf))!.parent!;
    const [asset] = await mkAssets(await mkGroup(VIRTUAL_ROOT, uniq("Файлы")), 1);
    await call(`/api/taxonomy/add-member/${leaf}`, { method: "POST", json: { objectId: asset }, bearer });
    expect((await call(`/api/taxonomy/delete/${top}`, { method: "DELETE", bearer: user.bearer })).status).toBe(403);
    expect((await call(`/api/taxonomy/delete/${top}`, { method: "DELETE", bearer })).body).toEqual({ ok: true });
    expect(await byId(top)).toBeUndefined();
    expect(await byId(leaf)).toBeUndefined();
    expect(await db().select().from(taxonMembers).where(eq(taxonMembers.objectId, asset)).all()).toEqual([]);
    expect((await call(`/api/taxonomy/delete/${top}`, { method: "DELETE", bearer })).status).toBe(404);
  });
});
