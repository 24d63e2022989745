import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { assets, groups, variants } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT, type Person } from "./fixtures";
import { randomBytes, uploadFile } from "./uploads.helpers";

/**
 * members/{id}?sort=name|ctime|size&order=asc|desc: the server's orders over the whole group, kept by the
 * sort copies in group_members (db/schema/group-members.ts) when assets and variants change.
 */

interface M {
  el_id: string;
  el_type: "asset" | "group";
  el_info: { name: string; ctime: number; var_size: number | null };
}

let bearer: string;
let root: string;
let group: string;
let subgroups: string[];
/** name, asset ctime (seconds) and latest size of each asset, by id. */
const made = new Map<string, { name: string; ctime: number; size: number | null }>();
let reader: Person;
let outsider: Person;

const list = async (query: string, as = bearer) => {
  const r = await call(`/api/group/members/${group}?take=200&${query}`, { bearer: as });
  expect(r.status).toBe(200);
  return r.body as M[];
};
const assetIds = (page: M[]) => page.filter((m) => m.el_type === "asset").map((m) => m.el_id);
/** The server folds names for sorting as Russian dictionaries do: case aside, ё with е. */
const fold = (s: string) => s.toLocaleLowerCase("ru").replace(/ё/g, "е");

/** What each order must give for the assets, computed from what was made (ties by id, as the server breaks them). */
function expected(sort: "name" | "ctime" | "size", order: "asc" | "desc", ids = [...made.keys()]) {
  const value = (id: string) => {
    const a = made.get(id)!;
    return sort === "name" ? fold(a.name) : sort === "ctime" ? a.ctime : a.size;
  };
  const cmp = (x: string, y: string) => {
    const [a, b] = [value(x), value(y)];
    if (a === b) return x < y ? -1 : 1;
    if (a === null) return -1; // SQLite puts NULL (no variant yet) first when ascending
    if (b === null) return 1;
    return a < b ? -1 : 1;
  };
  const asc = [...ids].sort(cmp);
  return order === "asc" ? asc : asc.reverse();
}

/** A variant row as a finished upload leaves it (only its size matters here). */
const variantRow = (assetId: string, version: number, contentSize: number, ctime: number) => ({
  variantId: crypto.randomUUID(),
  assetId,
  version,
  storageId: "s",
  objectKey: `k/${assetId}/${version}`,
  name: "initial",
  mimeType: "image/jpeg",
  variantType: "initial" as const,
  contentSize,
  fileName: "f.jpg",
  etag: "e",
  ctime,
});

beforeAll(async () => {
  bearer = await admin();
  root = await mkGroup(VIRTUAL_ROOT, uniq("Сортировка"));
  group = await mkGroup(root, "Папка");
  subgroups = [];
  for (const name of ["бета", "Альфа", "гамма"]) subgroups.push(await mkGroup(group, name));
  // Distinct group ctimes, reversed against their names, so the ctime order differs from the name order.
  for (const [i, id] of subgroups.entries())
    await db()
      .update(groups)
      .set({ ctime: 1_700_000_300 - i * 10 })
      .where(eq(groups.groupId, id));

  const names = [
    "яблоко.jpg",
    "Банан.jpg",
    "apple.jpg",
    "Zebra.jpg",
    "ёлка.jpg",
    "вишня.jpg",
    "Дыня.jpg",
    "kiwi.jpg",
    "Арбуз.jpg",
    "mango.jpg",
  ];
  const created = await call("/api/asset/create-list", {
    method: "POST",
    bearer,
    json: { assets: names.map((asset_name) => ({ asset_name, asset_mime: "image/jpeg", in_group: group })) },
  });
  expect(created.status).toBe(200);
  const ids = created.body.map((a: { asset_id: string }) => a.asset_id) as string[];
  // Asset ctimes in an order unrelated to names or to the order they were added (the trigger copies them).
  for (const [i, id] of ids.entries()) {
    const ctime = 1_700_000_000 + ((i * 7) % 10) * 100;
    await db().update(assets).set({ ctime }).where(eq(assets.assetId, id));
    made.set(id, { name: names[i], ctime, size: null });
  }
  // Sizes: one real upload; eight get variant rows directly; the last stays without a variant.
  await uploadFile(bearer, ids[0], randomBytes(5000), { mime: "image/jpeg", name: names[0] });
  made.get(ids[0])!.size = 5000;
  const now = Math.floor(Date.now() / 1000);
  const sizes = [0, 300, 300, 90, 12_000, 7, 640, 2_000_000];
  for (const [i, contentSize] of sizes.entries()) {
    const assetId = ids[i + 1];
    made.get(assetId)!.size = contentSize;
    await db()
      .insert(variants)
      .values(variantRow(assetId, 1, contentSize, now));
  }
  reader = await mkPerson();
  outsider = await mkPerson();
  await grant(reader.id, root, ["read"]);
});

describe("members/{id} sorted on the server", () => {
  it.each([
    ["name", "asc"],
    ["name", "desc"],
    ["ctime", "asc"],
    ["ctime", "desc"],
    ["size", "asc"],
    ["size", "desc"],
  ] as const)("sort=%s order=%s orders the assets, subgroups first", async (sort, order) => {
    const page = await list(`sort=${sort}&order=${order}`);
    expect(page).toHaveLength(13);
    expect(page.slice(0, 3).every((m) => m.el_type === "group")).toBe(true);
    expect(assetIds(page)).toEqual(expected(sort, order));
    // Subgroups: by ctime for sort=ctime (set reversed against the names), by name otherwise.
    const byName = ["Альфа", "бета", "гамма"];
    const groupsAsc = sort === "ctime" ? ["гамма", "Альфа", "бета"] : byName;
    expect(page.slice(0, 3).map((m) => m.el_info.name)).toEqual(order === "asc" ? groupsAsc : [...groupsAsc].reverse());
  });

  it("the values shown agree with the order (sizes of the latest variant, asset ctimes)", async () => {
    const bySize = (await list("sort=size&type=asset")).map((m) => m.el_info.var_size);
    expect(bySize).toEqual([null, 0, 7, 90, 300, 300, 640, 5000, 12_000, 2_000_000]);
    const byCtime = (await list("sort=ctime&order=desc&type=asset")).map((m) => m.el_info.ctime);
    expect(byCtime).toEqual([...byCtime].sort((a, b) => b - a));
  });

  it("pages of 4 put together give the same order as one page, across subgroups and assets", async () => {
    for (const query of ["sort=name&order=desc", "sort=size", "order=desc"]) {
      const whole = (await list(query)).map((m) => m.el_id);
      const paged: string[] = [];
      for (let skip = 0; skip < 16; skip += 4) {
        const r = await call(`/api/group/members/${group}?skip=${skip}&take=4&${query}`, { bearer });
        paged.push(...(r.body as M[]).map((m) => m.el_id));
      }
      expect(paged).toEqual(whole);
    }
  });

  it("without sort the assets come as added; order=desc reverses that", async () => {
    const added = assetIds(await list(""));
    expect(assetIds(await list("order=desc"))).toEqual([...added].reverse());
  });

  it("follows a rename and a new version's variant (the copies are kept by the database)", async () => {
    const [first] = expected("name", "asc");
    const renamed = await call(`/api/asset/${first}`, { method: "PATCH", bearer, json: { asset_name: "ЯЯЯ последний.jpg" } });
    expect(renamed.status).toBe(200);
    made.get(first)!.name = "ЯЯЯ последний.jpg";
    expect(assetIds(await list("sort=name"))).toEqual(expected("name", "asc"));
    expect(assetIds(await list("sort=name")).at(-1)).toBe(first);

    const [smallest] = expected("size", "asc");
    const before = made.get(smallest)!.size;
    await db()
      .insert(variants)
      .values({ ...variantRow(smallest, 2, 9_000_000, 1), objectKey: "k2" });
    made.get(smallest)!.size = 9_000_000;
    expect(assetIds(await list("sort=size"))).toEqual(expected("size", "asc"));
    expect(assetIds(await list("sort=size")).at(-1)).toBe(smallest);
    await db()
      .delete(variants)
      .where(inArray(variants.objectKey, ["k2"]));
    made.get(smallest)!.size = before;
    expect(assetIds(await list("sort=size"))[0]).toBe(smallest);
  });

  it.each([
    ["sort", "sort=date"],
    ["sort", "sort="],
    ["order", "sort=name&order=up"],
  ])("answers 400 naming %s for %s", async (field, query) => {
    const r = await call(`/api/group/members/${group}?${query}`, { bearer });
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("keeps the access rules: a denied asset is left out of every order, an outsider gets 404", async () => {
    const denied = expected("name", "asc")[0];
    await grant(reader.id, denied, ["deny"], "user", "asset");
    for (const query of ["sort=name", "sort=size&order=desc", "sort=ctime"]) {
      const page = await list(query, reader.bearer);
      expect(page).toHaveLength(12);
      expect(page.map((m) => m.el_id)).not.toContain(denied);
    }
    const r = await call(`/api/group/members/${group}?sort=name`, { bearer: outsider.bearer });
    expect(r.status).toBe(404);
    expect(r.text).not.toContain("яблоко");
  });

  it("sorts the virtual root's groups too", async () => {
    const byName = await call(`/api/group/members/${VIRTUAL_ROOT}?sort=name&order=desc`, { bearer: reader.bearer });
    expect(byName.body.map((m: M) => m.el_id)).toEqual([root]);
    const all = (await call(`/api/group/members/${VIRTUAL_ROOT}?sort=ctime&order=desc&take=200`, { bearer })).body as M[];
    expect(all.map((m) => m.el_info.ctime)).toEqual([...all.map((m) => m.el_info.ctime)].sort((a, b) => b - a));
  });
});
