import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { buildTerm, rescoreFrequentTerms } from "../../functions/search/frequent";
import { parseQuery } from "../../functions/search/match";
import { admin, call, db, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { type Answer, mkNamed, search, tagWith } from "./search.helpers";
import { mkTag } from "./tags.helpers";

/**
 * The frequent-word index (docs/decisions/052-frequent-words.md): once a word has its index, a one-word search
 * answers from it. Its total and facets must be exactly the FTS path's for every caller, after every kind of
 * change the indexer keeps it in step with; its page holds the same hits, ranked by the bm25 each posting got
 * when written — the FTS path's very order and scores right after the word's postings are scored (built, or
 * rescored by the cron). A filter that selects everything sends the same query down the FTS path, which is
 * what each answer is compared with.
 */

const WORD = "закат";
const expr = parseQuery(WORD).fts as string;
let top: string;
let open: string;
let closed: string;
let reader: Person;
let ruled: Person;
const ids: Record<string, string> = {};

const byIndex = (bearer?: string, extra: Record<string, unknown> = {}) => search({ q: WORD, take: 50, ...extra }, bearer);
const byFts = (bearer?: string, extra: Record<string, unknown> = {}) =>
  search({ q: WORD, take: 50, ...extra, filters: { ctime: [0, null] } }, bearer);

const callers = async () =>
  [
    ["admin", await admin()],
    ["reader", reader.bearer],
    ["ruled", ruled.bearer],
  ] as const;

/** Right after scoring, the index's answer is the FTS path's, for the admin, a reader of one group and a caller with an asset rule. */
async function sameForAll(): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  for (const [who, bearer] of await callers()) {
    const answer = await byIndex(bearer);
    expect(answer, who).toEqual(await byFts(bearer));
    expect(await byIndex(bearer, { skip: 2, take: 3 }), `${who}, a page further`).toEqual(await byFts(bearer, { skip: 2, take: 3 }));
    out[who] = answer;
  }
  return out;
}

const hitIds = (a: Answer) => a.items.map((i) => i.el_id).sort();

/** Between scorings: the same total, facets and hits (the corpus fits one page), pages cut from one order. */
async function sameHits(): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  for (const [who, bearer] of await callers()) {
    const answer = await byIndex(bearer);
    const fts = await byFts(bearer);
    expect({ total: answer.total, facets: answer.facets, ids: hitIds(answer) }, who).toEqual({
      total: fts.total,
      facets: fts.facets,
      ids: hitIds(fts),
    });
    expect((await byIndex(bearer, { skip: 2, take: 3 })).items, `${who}, a page further`).toEqual(answer.items.slice(2, 5));
    out[who] = answer;
  }
  return out;
}

const post = async (path: string, json: unknown) => {
  const r = await call(path, { method: "POST", json, bearer: await admin() });
  expect(r.status, r.text).toBe(200);
};

const termId = sql`(SELECT term_id FROM search_frequent_terms WHERE expr = ${expr})`;
const snapshot = async () => ({
  counts: await db().all(
    sql`SELECT ps_id, facet, value, count FROM search_term_counts WHERE term_id = ${termId} AND count <> 0 ORDER BY 1, 2, 3`,
  ),
  postings: await db().all(sql`SELECT doc_id, ps_id FROM search_term_postings WHERE term_id = ${termId} ORDER BY 1`),
});

beforeAll(async () => {
  top = await mkGroup(VIRTUAL_ROOT, uniq("Частые"));
  open = await mkGroup(top, uniq("Открытая"));
  closed = await mkGroup(top, uniq("Закрытая"));
  reader = await mkPerson();
  ruled = await mkPerson();
  await grant(reader.id, open, ["read"]);
  await grant(ruled.id, open, ["read"]);
  ids.sea = await mkNamed(open, "Закат над морем.jpg");
  ids.hills = await mkNamed(open, "Закаты в горах.png", "image/png");
  ids.red = await mkNamed(open, "Красный закат.mp4", "video/mp4");
  ids.sun = await mkNamed(open, "Закатное солнце.jpg");
  ids.plain = await mkNamed(open, "Морской пейзаж.jpg");
  ids.secret = await mkNamed(closed, "Закат секретный.jpg");
  ids.both = await mkNamed(open, "Закат общий.jpg");
  await post("/api/group/insert-members", { group_id: closed, members: [{ el_id: ids.both, el_type: "asset" }] });
  await mkGroup(open, uniq("Закаты архива"));
  const evening = await mkTag(uniq("Вечер"));
  for (const id of [ids.sea, ids.red, ids.secret]) await tagWith(evening, id);
  const taxon = await call("/api/taxonomy/create", { method: "POST", json: { path: `${uniq("Природа")}/Небо` }, bearer: await admin() });
  for (const id of [ids.sun, ids.both]) await post(`/api/taxonomy/add-member/${taxon.body.taxon_id}`, { objectId: id });
  await grant(ruled.id, ids.secret, ["read"], "user", "asset");
  // A search indexes what waits; then the word gets its index.
  await byFts();
  await buildTerm(db(), expr);
});

describe("a frequent word's index", () => {
  it("is built from the FTS index and answers as the FTS path does", async () => {
    const [term] = await db().all<{ ready: number }>(sql`SELECT ready FROM search_frequent_terms WHERE expr = ${expr}`);
    expect(term?.ready).toBe(1);
    const all = await sameForAll();
    // Six assets (one in both groups) and a group hold the word; the reader may not read the closed group.
    expect(all.admin.total).toBe(7);
    expect(all.reader.total).toBe(6);
    expect(all.reader.items.map((i) => i.el_id)).not.toContain(ids.secret);
    expect(all.ruled.items.map((i) => i.el_id)).toContain(ids.secret);
    expect(all.admin.facets.tags).toEqual([expect.objectContaining({ count: 3 })]);
    expect(all.reader.facets.taxon).toEqual([expect.objectContaining({ label: "Небо", count: 2 })]);
    expect(all.reader.facets.mime.map((m) => [m.value, m.count])).toEqual([
      ["image", 4],
      ["video", 1],
    ]);
  });

  it("is what the one-word answer is read from, and only that answer", async () => {
    const bump = (n: number) =>
      db().run(sql`UPDATE search_term_counts SET count = count + ${n} WHERE facet = 'total' AND term_id = ${termId}`);
    const { total } = await byIndex();
    await bump(100);
    try {
      expect((await byIndex()).total).toBeGreaterThan(total + 99);
      expect((await byFts()).total).toBe(total);
      expect((await byIndex(undefined, { sort: "name" })).total).toBe(total);
    } finally {
      await bump(-100);
    }
  });

  it("stays exact through new, tagged, moved, renamed, unplaced and deleted assets", async () => {
    ids.fresh = await mkNamed(open, "Ещё один закат.jpg");
    await sameHits();
    const word = await mkTag(uniq("Закатное небо"));
    await tagWith(word, ids.plain);
    await sameHits();
    await post("/api/group/move-member", { el_id: ids.sea, el_type: "asset", from: open, to: closed });
    expect((await sameHits()).reader.items.map((i) => i.el_id)).not.toContain(ids.sea);
    const renamed = await call(`/api/asset/${ids.hills}`, { method: "PATCH", json: { asset_name: "Горы.png" }, bearer: await admin() });
    expect(renamed.status, renamed.text).toBe(200);
    await sameHits();
    await post("/api/group/delete-members", { group_id: open, members: [{ el_id: ids.both, el_type: "asset" }] });
    expect((await sameHits()).reader.items.map((i) => i.el_id)).not.toContain(ids.both);
    await post("/api/asset/delete-list", { ids: [ids.red] });
    const after = await sameHits();
    expect(after.admin.items.map((i) => i.el_id)).not.toContain(ids.red);
    // The cron scores the word again once its scores are a day old: the FTS path's order and scores once more.
    await rescoreFrequentTerms(db(), Math.floor(Date.now() / 1000));
    await sameHits();
    await rescoreFrequentTerms(db(), Math.floor(Date.now() / 1000) + 2 * 24 * 3600);
    await sameForAll();
  });

  it("follows the trash: what is only in a deleted group is not found, and is again once restored", async () => {
    const before = (await sameHits()).admin.total;
    await post("/api/group/delete-list", { ids: [closed] });
    const trashed = await sameHits();
    expect(trashed.admin.total).toBeLessThan(before);
    expect(trashed.admin.items.map((i) => i.el_id)).not.toContain(ids.secret);
    await post("/api/group/restore", { ids: [closed] });
    expect((await sameHits()).admin.total).toBe(before);
  });

  it("kept in step holds what building it afresh holds", async () => {
    await byFts();
    const kept = await snapshot();
    expect(kept.postings.length).toBeGreaterThan(0);
    await buildTerm(db(), expr, { rescore: true });
    expect(await snapshot()).toEqual(kept);
  });
});

describe("a frequent word's index and documents waiting to be indexed", () => {
  it("answers only when nothing waits: a moved asset whose document is not indexed again yet is not found through its old group", async () => {
    const moved = await mkNamed(open, "Закат переезжает.jpg");
    const before = await byIndex(reader.bearer);
    expect(before.items.map((i) => i.el_id)).toContain(moved);
    // More waiting documents than a search indexes before it reads (those of assets that are gone), marked first,
    // then the asset leaves the reader's group for the closed one straight in the table: its mark comes last and
    // is still waiting when the search reads.
    const pad = Array.from({ length: 520 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    for (let i = 0; i < pad.length; i += 100)
      await db().run(
        sql`INSERT INTO search_dirty (el_id, el_type) SELECT value, 'asset' FROM json_each(${JSON.stringify(pad.slice(i, i + 100))})`,
      );
    await db().run(sql`UPDATE group_members SET group_id = ${closed} WHERE el_id = ${moved} AND group_id = ${open}`);
    await db().run(
      sql`INSERT INTO search_dirty (el_id, el_type) VALUES (${moved}, 'asset') ON CONFLICT (el_id) DO UPDATE SET mark = mark + 1`,
    );
    const during = await byIndex(reader.bearer);
    expect(await db().get(sql`SELECT 1 AS x FROM search_dirty WHERE el_id = ${moved}`)).toBeTruthy();
    expect(during.items.map((i) => i.el_id)).not.toContain(moved);
    expect(during.total).toBe(before.total - 1);
    // Once everything is indexed again, the index answers, and the same.
    const fts = await byFts(reader.bearer);
    expect(await db().get(sql`SELECT 1 AS x FROM search_dirty LIMIT 1`)).toBeFalsy();
    expect({ total: fts.total, ids: hitIds(fts) }).toEqual({ total: during.total, ids: hitIds(during) });
    expect((await byIndex(reader.bearer)).total).toBe(during.total);
  });
});
