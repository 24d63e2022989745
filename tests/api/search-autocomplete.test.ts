import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { mkNamed } from "./search.helpers";
import { mkTag } from "./tags.helpers";

/**
 * GET /api/search/autocomplete (docs/decisions/045-search.md): names starting with the text (tags, taxa,
 * assets and groups, any word of a name), then words one typo away; readable things only.
 */

interface Suggestion {
  text: string;
  kind: string;
  id: string;
  typo?: boolean;
}
const suggest = async (q: string, bearer?: string, take = 20): Promise<Suggestion[]> => {
  const r = await call(`/api/search/autocomplete?q=${encodeURIComponent(q)}&take=${take}`, { bearer: bearer ?? (await admin()) });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

let open: string;
let closed: string;
let reader: Person;
let tag: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const top = await mkGroup(VIRTUAL_ROOT, uniq("Подсказки"));
  open = await mkGroup(top, uniq("Открытая"));
  closed = await mkGroup(top, uniq("Закрытая"));
  reader = await mkPerson();
  await grant(reader.id, open, ["read"]);
  ids.lighthouse = await mkNamed(open, "Маяк Генуэзский.jpg");
  ids.hidden = await mkNamed(closed, "Маяк секретный.jpg");
  ids.sunset = await mkNamed(open, "Закат над морем.jpg");
  tag = await mkTag("Маяки и берега");
});

describe("prefix", () => {
  it("suggests assets by any word of the name, and tags, as the text is typed", async () => {
    const all = await suggest("мая");
    expect(all).toContainEqual({ text: "Маяк Генуэзский.jpg", kind: "asset", id: ids.lighthouse });
    expect(all).toContainEqual({ text: "Маяки и берега", kind: "tag", id: tag });
    expect((await suggest("генуэз")).map((s) => s.id)).toContain(ids.lighthouse);
    expect((await suggest("МОРЕМ")).map((s) => s.id)).toContain(ids.sunset);
  });

  it("lists only what the caller can read", async () => {
    const mine = (await suggest("маяк", reader.bearer)).map((s) => s.id);
    expect(mine).toContain(ids.lighthouse);
    expect(mine).not.toContain(ids.hidden);
    expect((await suggest("маяк")).map((s) => s.id)).toContain(ids.hidden);
  });

  it("keeps to take, and answers nothing for nothing typed", async () => {
    expect(await suggest("ма", undefined, 1)).toHaveLength(1);
    expect(await suggest("  ")).toEqual([]);
  });

  it("refuses a bad take with the field named", async () => {
    const r = await call("/api/search/autocomplete?q=a&take=500", { bearer: await admin() });
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].field).toBe("take");
  });
});

describe("one typo", () => {
  it("finds a name with one letter wrong, swapped or missing, marked as a correction", async () => {
    for (const typo of ["генуэсский", "гнеуэзский", "генэзский", "закот"]) {
      const got = await suggest(typo);
      expect(got.length, typo).toBeGreaterThan(0);
      expect(
        got.some((s) => s.typo && (s.id === ids.lighthouse || s.id === ids.sunset)),
        typo,
      ).toBe(true);
    }
  });

  it("suggests a tag one typo away too, after what the typed text itself finds", async () => {
    const got = await suggest("маяик");
    expect(got).toContainEqual({ text: "Маяки и берега", kind: "tag", id: tag, typo: true });
    const exact = await suggest("маяки");
    expect(exact[0]).toEqual({ text: "Маяки и берега", kind: "tag", id: tag });
  });

  it("does not guess for a word too far from anything", async () => {
    expect(await suggest("щфыврпал")).toEqual([]);
  });
});
