import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { variants } from "../../db/schema";
import { parseCsv } from "../../functions/lib/csv";
import { parseVtt } from "../../functions/transcripts/subtitles";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { comment, fieldsOf, listOf } from "./review.helpers";
import { Guest, outside } from "./review-guest.helpers";
import { uploadFile } from "./uploads.helpers";

/**
 * Comments on PDF pages (docs/decisions/061-review-and-approval.md, "PDF pages"): `page` from 1, bounded by the
 * version's page count once the metadata job has counted it, listed with `pages`, in the CSV with their page.
 */

/** A PDF asset with one version in a fresh group and a reader of it; its page count is unknown until `counted`. */
async function pdfWorld() {
  const group = await mkGroup(VIRTUAL_ROOT);
  const name = `${uniq("Макет")}.pdf`;
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: "application/pdf", in_group: group },
    bearer: await admin(),
  });
  expect(r.status, r.text).toBe(200);
  const id = r.body.asset_id as string;
  await uploadFile(await admin(), id, new TextEncoder().encode("%PDF-1.4\n%%EOF\n"), { mime: "application/pdf", name });
  const reader = await mkPerson();
  await grant(reader.id, group, ["read"]);
  return { id, reader };
}

/** What the transcoder's metadata job leaves on a PDF's variant: its page count among the technical fields. */
const counted = (assetId: string, pages: number) =>
  db()
    .update(variants)
    .set({ techProps: { pages, container: "pdf" } })
    .where(and(eq(variants.assetId, assetId), eq(variants.version, 1)));

const post = (assetId: string, bearer: string, page: unknown) =>
  call("/api/review/comments", { method: "POST", json: { asset_id: assetId, body: "стр.", page }, bearer });

describe("review comments on PDF pages", () => {
  it("takes any page from 1 before the pages are counted, and refuses 0, fractions and text naming `page`", async () => {
    const w = await pdfWorld();
    expect((await listOf(w.id, w.reader.bearer)).pages).toBeNull();
    for (const bad of [0, -1, 1.5, "2"]) expect(fieldsOf(await post(w.id, w.reader.bearer, bad))).toEqual(["page"]);
    const far = await comment(w.reader.bearer, { asset_id: w.id, body: "далеко", page: 40 });
    expect((await listOf(w.id, w.reader.bearer)).items.map((c) => [c.comment_id, c.page])).toEqual([[far, 40]]);
  });

  it("once counted, lists `pages`, refuses a page past the end naming `page`, and orders by page", async () => {
    const w = await pdfWorld();
    await counted(w.id, 3);
    const general = await comment(w.reader.bearer, { asset_id: w.id, body: "в целом" });
    const third = await comment(w.reader.bearer, { asset_id: w.id, body: "последняя", page: 3 });
    const second = await comment(w.reader.bearer, { asset_id: w.id, body: "вторая", page: 2 });
    const past = await post(w.id, w.reader.bearer, 4);
    expect(fieldsOf(past)).toEqual(["page"]);
    expect(past.body.error.details[0].message).toContain("3");
    const list = await listOf(w.id, w.reader.bearer);
    expect(list.pages).toBe(3);
    expect(list.items.map((c) => [c.comment_id, c.page, c.at])).toEqual([
      [second, 2, null],
      [third, 3, null],
      [general, null, null],
    ]);
  });

  it("a review link's guest gets `pages` and the same bound", async () => {
    const w = await pdfWorld();
    await counted(w.id, 2);
    const guest = await (await Guest.invited({ asset_id: w.id, reviewers: [outside()] })).named("Гость");
    const id = await guest.comment({ body: "вторая у гостя", page: 2 });
    const past = await guest.call("/comments", { method: "POST", json: { body: "нет такой", page: 3 } });
    expect(fieldsOf(past)).toEqual(["page"]);
    expect(fieldsOf(await guest.call("/comments", { method: "POST", json: { body: "ноль", page: 0 } }))).toEqual(["page"]);
    const list = await guest.call("/comments");
    expect(list.status, list.text).toBe(200);
    expect(list.body.pages).toBe(2);
    expect(list.body.items.map((c: { comment_id: string; page: number }) => [c.comment_id, c.page])).toEqual([[id, 2]]);
  });

  it("the CSV carries each comment's page with no timecode; WebVTT and EDL leave page comments out", async () => {
    const w = await pdfWorld();
    await counted(w.id, 5);
    const onPage = await comment(w.reader.bearer, { asset_id: w.id, body: "поля узкие", page: 4 });
    const reply = await comment(w.reader.bearer, { asset_id: w.id, body: "согласен", parent_id: onPage });
    const file = async (format: string) => {
      const res = await api(`/api/review/export/${w.id}?format=${format}`, { bearer: w.reader.bearer });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      return text;
    };
    const [head, ...rows] = parseCsv(await file("csv"));
    const row = (id: string) => Object.fromEntries(head.map((h, i) => [h, rows.find((r) => r[0] === id)![i]]));
    expect(row(onPage)).toMatchObject({ page: "4", timecode: "", frame: "", body: "поля узкие" });
    expect(row(reply)).toMatchObject({ parent_id: onPage, page: "", body: "согласен" });
    expect(await parseVtt(await file("vtt"))).toEqual([]);
    expect(await file("edl")).not.toMatch(/^\d{3} /m);
  });
});
