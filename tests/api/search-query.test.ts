import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { mkTemplate, setValue } from "./fields.helpers";
import { mkNamed, names, search, tagWith } from "./search.helpers";
import { mkTag } from "./tags.helpers";

/**
 * POST /api/search/query (docs/decisions/045-search.md): Russian and English morphology, ё and е, filters and
 * facet counts, the access rule (totals included), sorting and paging, and a change found by the next query.
 */

let top: string;
let open: string;
let closed: string;
let reader: Person;
const ids: Record<string, string> = {};

beforeAll(async () => {
  top = await mkGroup(VIRTUAL_ROOT, uniq("Поиск"));
  open = await mkGroup(top, uniq("Открытая"));
  closed = await mkGroup(top, uniq("Закрытая"));
  reader = await mkPerson();
  await grant(reader.id, open, ["read"]);
  ids.cat = await mkNamed(open, "Кошка на окне.jpg");
  ids.cats = await mkNamed(open, "Две кошки во дворе.png", "image/png");
  ids.tree = await mkNamed(open, "Ёлка в лесу.jpg");
  ids.run = await mkNamed(open, "Running dogs.mov", "video/quicktime");
  ids.secret = await mkNamed(closed, "Кошка секретная.jpg");
  ids.doc = await mkNamed(open, "Отчёт.pdf", "application/pdf");
});

describe("morphology", () => {
  it("finds every form of a Russian word, the fleeting vowel included", async () => {
    for (const q of ["кошка", "кошки", "кошек", "кошкой", "КОШКУ"]) {
      expect(await names(q, open), q).toEqual(["Две кошки во дворе.png", "Кошка на окне.jpg"]);
    }
  });

  it("treats ё as е, both ways", async () => {
    expect(await names("елка", open)).toEqual(["Ёлка в лесу.jpg"]);
    expect(await names("ёлки", open)).toEqual(["Ёлка в лесу.jpg"]);
    expect(await names("отчет", open)).toEqual(["Отчёт.pdf"]);
  });

  it("stems English words", async () => {
    expect(await names("run", open)).toEqual(["Running dogs.mov"]);
    expect(await names("dog", open)).toEqual(["Running dogs.mov"]);
  });

  it("needs every word, leaves stop words out, and matches a quoted phrase as one", async () => {
    expect(await names("кошки двор", open)).toEqual(["Две кошки во дворе.png"]);
    expect(await names("кошка на окне", open)).toEqual(["Кошка на окне.jpg"]);
    expect(await names('"окне кошка"', open)).toEqual([]);
    expect(await names('"кошка на окне"', open)).toEqual(["Кошка на окне.jpg"]);
  });

  it("marks the hits in the snippet, escaping the rest", async () => {
    const [hit] = (await search({ q: "кошек", filters: { group: open, mime: ["image/png"] } })).items;
    expect(hit.snippet).toBe("Две <mark>кошки</mark> во дворе.png");
  });
});

describe("filters and facets", () => {
  let tag: string;
  let template: string;
  beforeAll(async () => {
    tag = await mkTag(uniq("Животные"));
    await tagWith(tag, ids.cat);
    await tagWith(tag, ids.run);
    template = await mkTemplate("text");
    expect((await setValue({ entity_id: ids.cat, def_id: template, field_data: "Снято на балконе, утром" })).status).toBe(200);
  });

  it("finds text in tags and field values, and shows where in the snippet", async () => {
    expect(await names("балкон", open)).toEqual(["Кошка на окне.jpg"]);
    const [hit] = (await search({ q: "балконе", filters: { group: open } })).items;
    expect(hit.snippet).toContain("<mark>балконе</mark>");
    expect(await names("животное", open)).toEqual(["Running dogs.mov", "Кошка на окне.jpg"]);
  });

  it("filters by mime prefix, tag and field value, and counts facets over the result", async () => {
    expect(await names("", open, undefined, { filters: { mime: ["image"] } })).toEqual(
      ["Две кошки во дворе.png", "Кошка на окне.jpg", "Ёлка в лесу.jpg"].sort(),
    );
    expect(await names("", open, undefined, { filters: { tags: [tag] } })).toEqual(["Running dogs.mov", "Кошка на окне.jpg"]);
    expect(await names("", open, undefined, { filters: { fields: [{ def_id: template, op: "contains", value: "балконе" }] } })).toEqual([
      "Кошка на окне.jpg",
    ]);
    const all = await search({ q: "", filters: { group: open } });
    expect(all.total).toBe(6);
    const mime = Object.fromEntries(all.facets.mime.map((f) => [f.value, f.count]));
    expect(mime).toEqual({ image: 3, video: 1, application: 1 });
    expect(all.facets.tags).toContainEqual(expect.objectContaining({ value: tag, count: 2 }));
  });

  it("refuses a bad filter with the field named", async () => {
    const bad = await call("/api/search/query", { method: "POST", json: { q: "x", filters: { size: [10, 1] } }, bearer: await admin() });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("filters.size");
    const op = await call("/api/search/query", {
      method: "POST",
      json: { filters: { fields: [{ def_id: template, op: "eq", value: 5 }] } },
      bearer: await admin(),
    });
    expect(op.status).toBe(400);
    expect(op.body.error.details[0].field).toBe("filters.fields.0.value");
    const take = await call("/api/search/query", { method: "POST", json: { q: "x", take: 101 }, bearer: await admin() });
    expect(take.status).toBe(400);
    expect(take.body.error.details[0].field).toBe("take");
  });
});

describe("access", () => {
  it("never lists what the caller cannot read, and the total leaves it out", async () => {
    const asAdmin = await search({ q: "кошка", filters: { group: top } });
    expect(asAdmin.items.map((i) => i.el_id)).toContain(ids.secret);
    const asReader = await search({ q: "кошка" }, reader.bearer);
    expect(asReader.items.map((i) => i.el_id)).not.toContain(ids.secret);
    expect(asReader.total).toBe(2);
    expect(asReader.items.every((i) => [ids.cat, ids.cats].includes(i.el_id))).toBe(true);
  });

  it("answers 404 for a group filter the caller cannot read", async () => {
    const r = await call("/api/search/query", { method: "POST", json: { q: "кошка", filters: { group: closed } }, bearer: reader.bearer });
    expect(r.status).toBe(404);
  });

  it("finds nothing that is only in the trash, as admin too, and finds it again once restored", async () => {
    const bin = await mkGroup(top, uniq("Корзина"));
    const trashed = await mkNamed(bin, "Выброшенный маяк.jpg");
    const alsoLive = await mkNamed(bin, "Выброшенный маяк на острове.jpg");
    const placed = await call("/api/group/insert-members", {
      method: "POST",
      json: { group_id: open, members: [{ el_id: alsoLive, el_type: "asset" }] },
      bearer: await admin(),
    });
    expect(placed.status, placed.text).toBe(200);
    expect((await call(`/api/group/delete/${bin}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    const found = async () => (await search({ q: "выброшенный маяк" })).items.map((i) => i.el_id).sort();
    expect(await found()).toEqual([alsoLive]);
    expect((await call("/api/group/restore", { method: "POST", json: { ids: [bin] }, bearer: await admin() })).status).toBe(200);
    expect(await found()).toEqual([trashed, alsoLive].sort());
  });

  it("finds groups by name, readable ones only", async () => {
    const r = await search({ q: "закрытая" }, reader.bearer);
    expect(r.items.map((i) => i.el_id)).not.toContain(closed);
    const a = await search({ q: "открытая", filters: { group: top } });
    expect(a.items.map((i) => i.el_id)).toContain(open);
  });
});

describe("sorting, paging and freshness", () => {
  it("sorts by name and pages without overlap", async () => {
    const sorted = await search({ q: "", filters: { group: open }, sort: "name", take: 3 });
    const next = await search({ q: "", filters: { group: open }, sort: "name", take: 3, skip: 3 });
    const all = [...sorted.items, ...next.items].map((i) => i.name);
    expect(new Set(all).size).toBe(6);
    // Names compare as people read them: case and ё/е make no difference.
    const key = (n: string) => n.toLocaleLowerCase("ru").replace(/ё/g, "е");
    expect(all).toEqual([...all].sort((a, b) => (key(a) < key(b) ? -1 : 1)));
    expect(all.indexOf("Ёлка в лесу.jpg")).toBeLessThan(all.indexOf("Кошка на окне.jpg"));
  });

  it("ranks a name hit above a field-value hit", async () => {
    const g = await mkGroup(top, uniq("Ранжирование"));
    const inName = await mkNamed(g, "Маяк на скале.jpg");
    const other = await mkNamed(g, "Берег.jpg");
    const template = await mkTemplate("text");
    await setValue({ entity_id: other, def_id: template, field_data: "вдали виден маяк, а рядом скалы и море, волны, чайки" });
    const r = await search({ q: "маяк", filters: { group: g } });
    expect(r.items.map((i) => i.el_id)).toEqual([inName, other]);
    expect(r.items[0].score).toBeGreaterThan(r.items[1].score);
  });

  it("finds a renamed asset by its new name at once, and no more by the old one", async () => {
    const id = await mkNamed(open, "Старое название.jpg");
    expect(await names("старое", open)).toEqual(["Старое название.jpg"]);
    const r = await call(`/api/asset/${id}`, { method: "PATCH", json: { asset_name: "Новый закат.jpg" }, bearer: await admin() });
    expect(r.status, r.text).toBe(200);
    expect(await names("старое", open)).toEqual([]);
    expect(await names("закаты", open)).toEqual(["Новый закат.jpg"]);
    await call(`/api/asset/${id}`, { method: "DELETE", bearer: await admin() });
    expect(await names("закат", open)).toEqual([]);
  });
});
