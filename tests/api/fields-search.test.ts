import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, VIRTUAL_ROOT, type Person } from "./fixtures";
import { fieldsOf, mkAsset, mkTemplate, setValue } from "./fields.helpers";

/** entities-by-field: each op over typed and list values, and only entities the caller can read. */

let text: string;
let num: string;
let tagsDef: string;
let open: string[];
let hidden: string;
let reader: Person;

beforeAll(async () => {
  const group = await mkGroup(VIRTUAL_ROOT);
  const secret = await mkGroup(VIRTUAL_ROOT);
  reader = await mkPerson();
  await grant(reader.id, group, ["read"]);
  text = await mkTemplate("text");
  num = await mkTemplate("number");
  tagsDef = await mkTemplate("text", { multiple: true });
  open = [await mkAsset(group, "А-кадр"), await mkAsset(group, "Б-кадр"), await mkAsset(group, "В-кадр")];
  hidden = await mkAsset(secret, "Г-секрет");
  const words = ["Alpha one", "alpha two", "Beta"];
  for (const [i, id] of [...open, hidden].entries()) {
    await setValue({ entity_id: id, def_id: text, field_data: words[i] ?? "Alpha secret" });
    await setValue({ entity_id: id, def_id: num, field_data: i * 10 });
    await setValue({ entity_id: id, def_id: tagsDef, field_data: i % 2 ? ["x", "y"] : ["z"] });
  }
  // A second, time-coded value on the same asset: the entity is still listed once.
  await setValue({ entity_id: open[0], def_id: num, field_data: 5, pts: [1, 2] });
});

const search = async (body: Record<string, unknown>, bearer?: string) =>
  call("/api/fields/entities-by-field", { method: "POST", json: { skip: 0, take: 50, ...body }, bearer: bearer ?? reader.bearer });
const ids = async (body: Record<string, unknown>, bearer?: string) => {
  const r = await search(body, bearer);
  expect(r.status, r.text).toBe(200);
  expect(r.body.total).toBe(r.body.items.length);
  return (r.body.items as { entity_id: string }[]).map((i) => i.entity_id);
};

describe("entities-by-field", () => {
  it.each([
    ["eq", "text", "Beta", [2]],
    ["ne", "text", "Beta", [0, 1]],
    ["contains", "text", "ALPHA", [0, 1]],
    ["prefix", "text", "Alpha", [0]],
    ["in", "text", ["Beta", "alpha two"], [1, 2]],
    ["exists", "text", undefined, [0, 1, 2]],
    ["eq", "num", 10, [1]],
    ["lt", "num", 10, [0]],
    ["lte", "num", 10, [0, 1]],
    ["gt", "num", 5, [1, 2]],
    ["gte", "num", 5, [0, 1, 2]],
    ["in", "num", [0, 20], [0, 2]],
    ["eq", "list", "x", [1]],
    ["in", "list", ["z"], [0, 2]],
    ["contains", "list", "Y", [1]],
  ])("%s on %s", async (op, which, value, want) => {
    const def_id = which === "text" ? text : which === "num" ? num : tagsDef;
    expect((await ids({ def_id, op, value })).sort()).toEqual(want.map((i) => open[i]).sort());
  });

  it("answers names, pages, and the hidden asset only to those who can read it", async () => {
    const r = await search({ def_id: num, op: "exists", take: 2 });
    expect(r.body.total).toBe(3);
    expect(r.body.items).toEqual([
      { entity_id: open[0], entity_type: "asset", name: "А-кадр.mov" },
      { entity_id: open[1], entity_type: "asset", name: "Б-кадр.mov" },
    ]);
    expect(r.text).not.toContain(hidden);
    expect(await ids({ def_id: text, op: "prefix", value: "Alpha" }, await admin())).toContain(hidden);
    const stranger = await mkPerson();
    expect(await ids({ def_id: num, op: "exists" }, stranger.bearer)).toEqual([]);
  });

  it("refuses a value that does not fit the op or the field", async () => {
    expect(fieldsOf(await search({ def_id: num, op: "eq" }))).toContain("value");
    expect(fieldsOf(await search({ def_id: num, op: "in", value: 5 }))).toContain("value");
    expect(fieldsOf(await search({ def_id: num, op: "eq", value: "десять" }))).toContain("value");
    expect(fieldsOf(await search({ def_id: num, op: "prefix", value: 1 }))).toContain("op");
    expect(fieldsOf(await search({ def_id: num, op: "like", value: 1 }))).toContain("op");
    expect(fieldsOf(await search({ def_id: crypto.randomUUID(), op: "exists" }))).toContain("def_id");
  });
});
