import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, grant, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";
import { api } from "./helpers";
import { mkAsset, mkTemplate, setValue } from "./fields.helpers";

/** CSV export and import of a group's field values (decision 039): round trip, per-row errors, access. */

let group: string;
let topic: string;
let pages: string;
let topicName: string;
let pagesName: string;
let assets: string[];
let reader: Person;

const exportOf = async (bearer?: string) => {
  const res = await api(`/api/fields/export-csv/${group}`, { bearer: bearer ?? (await admin()) });
  return { status: res.status, type: res.headers.get("Content-Type"), text: await res.text() };
};
const importOf = async (csv: string, dry_run: boolean, bearer?: string) =>
  call(`/api/fields/import-csv/${group}`, { method: "POST", json: { csv, dry_run }, bearer: bearer ?? (await admin()) });

beforeAll(async () => {
  group = await mkGroup(VIRTUAL_ROOT, uniq("CSV"));
  topicName = uniq("Тема");
  pagesName = uniq("Страниц");
  topic = await mkTemplate("text", {}, topicName);
  pages = await mkTemplate("number", {}, pagesName);
  assets = [await mkAsset(group, "альфа"), await mkAsset(group, "бета")];
  await setValue({ entity_id: assets[0], def_id: topic, field_data: "Весна" });
  await setValue({ entity_id: assets[0], def_id: pages, field_data: 12 });
  await setValue({ entity_id: assets[1], def_id: topic, field_data: "Лето" });
  // A time-coded value is the timeline's: it stays out of the CSV.
  await setValue({ entity_id: assets[1], def_id: topic, field_data: "эпизод", pts: [1, 2] });
  reader = await mkPerson();
  await grant(reader.id, group, ["read"]);
});

describe("fields CSV", () => {
  it("exports one row per asset and one column per field, UTF-8 with a BOM", async () => {
    const { status, type, text } = await exportOf();
    expect(status).toBe(200);
    expect(type).toContain("text/csv");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    expect(rows[0].slice(0, 2)).toEqual(["asset_id", "name"]);
    expect(rows[0].slice(2).sort()).toEqual([topicName, pagesName].sort());
    const byId = Object.fromEntries(rows.slice(1).map((r) => [r[0], Object.fromEntries(rows[0].map((h, i) => [h, r[i]]))]));
    expect(byId[assets[0]]).toMatchObject({ [topicName]: "Весна", [pagesName]: "12" });
    expect(byId[assets[1]]).toMatchObject({ [topicName]: "Лето", [pagesName]: "" });
  });

  it("a dry run reports changes and row errors; applying writes the valid ones", async () => {
    const { text } = await exportOf();
    const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    const col = (h: string) => rows[0].indexOf(h);
    const edited = rows.map((r, i) => {
      if (i === 0) return r;
      const copy = [...r];
      if (r[0] === assets[0]) copy[col(pagesName)] = "много"; // not a number: this row's error
      if (r[0] === assets[1]) copy[col(topicName)] = "Осень";
      return copy;
    });
    edited.push([crypto.randomUUID(), "чужой", "", ""]);
    const csv = Papa.unparse(edited);

    const dry = await importOf(csv, true);
    expect(dry.status).toBe(200);
    const report = (id: string) => dry.body.rows.find((r: { asset_id: string }) => r.asset_id === id);
    expect(report(assets[1]).changes).toEqual([{ field: topicName, def_id: topic, old: "Лето", new: "Осень" }]);
    expect(report(assets[0]).errors[0]).toContain(pagesName);
    expect(dry.body.rows.at(-1).errors).toEqual(["файл не найден в этой группе"]);
    expect(dry.body.applied).toBe(0);
    expect((await exportOf()).text).toContain("Лето");

    const done = await importOf(csv, false);
    expect(done.body.applied).toBe(1);
    const after = (await exportOf()).text;
    expect(after).toContain("Осень");
    expect(after).not.toContain("Лето");
    // The time-coded value is untouched.
    const values = (await call(`/api/fields/for-entity/${assets[1]}?entity_type=asset`, { bearer: await admin() })).body;
    expect(values.filter((v: { pts: unknown }) => v.pts !== null).map((v: { field_data: unknown }) => v.field_data)).toEqual(["эпизод"]);
  });

  it("a reader exports and previews but cannot write; others do not see the group", async () => {
    expect((await exportOf(reader.bearer)).status).toBe(200);
    const csv = `asset_id,name,${topicName}\n${assets[0]},альфа,Зима\n`;
    const r = await importOf(csv, false, reader.bearer);
    expect(r.status).toBe(200);
    expect(r.body.rows[0].errors).toEqual(["недостаточно прав: нужно право «update»"]);
    expect(r.body.applied).toBe(0);
    const stranger = await mkPerson();
    expect((await exportOf(stranger.bearer)).status).toBe(404);
  });

  it("writes cells a spreadsheet would run as formulas with an apostrophe first, and reads them back exactly", async () => {
    const g = await mkGroup(VIRTUAL_ROOT, uniq("CSV-формулы"));
    const textName = `=${uniq("Поле")}`;
    const text = await mkTemplate("text", { multiline: true }, textName);
    const numberName = uniq("Число");
    const number = await mkTemplate("number", {}, numberName);
    const risky = [
      '=HYPERLINK("http://evil.example","x")',
      "+1+1",
      "-2+3",
      "@SUM(A1)",
      "\tтаб",
      "\rвозврат",
      "'=уже с апострофом",
      "обычный",
    ];
    const ids: string[] = [];
    for (const [i, value] of risky.entries()) {
      const id = await mkAsset(g, `${i === 0 ? "=cmd|' -C calc'!A0" : "файл"}-${i}`);
      expect((await setValue({ entity_id: id, def_id: text, field_data: value })).status).toBe(200);
      ids.push(id);
    }
    expect((await setValue({ entity_id: ids[0], def_id: number, field_data: -5 })).status).toBe(200);
    const exportG = async () => (await api(`/api/fields/export-csv/${g}`, { bearer: await admin() })).text();
    const importG = async (csv: string, dry_run: boolean) =>
      call(`/api/fields/import-csv/${g}`, { method: "POST", json: { csv, dry_run }, bearer: await admin() });

    const csv = await exportG();
    const rows = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    const col = (h: string) => rows[0].indexOf(h);
    // What a spreadsheet reads: no cell starts with = + - @, a tab or a carriage return.
    for (const row of rows) for (const cell of row) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows[0]).toContain(`'${textName}`);
    const cellOf = (id: string, column: number) => rows.find((r) => r[0] === id)?.[column];
    expect(cellOf(ids[0], 1)).toBe("'=cmd|' -C calc'!A0-0.mov");
    expect(cellOf(ids[0], col(`'${textName}`))).toBe(`'${risky[0]}`);
    expect(cellOf(ids[0], col(numberName))).toBe("'-5");
    expect(cellOf(ids[6], col(`'${textName}`))).toBe("''=уже с апострофом");
    expect(cellOf(ids[7], col(`'${textName}`))).toBe("обычный");

    // The export imported as it is: every column is known, nothing changes.
    const same = await importG(csv, true);
    expect(same.status, same.text).toBe(200);
    expect(same.body.rows.flatMap((r: { errors: string[] }) => r.errors)).toEqual([]);
    expect(same.body.changes).toBe(0);

    // Edited cells come back without the mark: the values are the text the user sees.
    const edited = rows.map((r) =>
      r[0] === ids[7] ? r.map((c, i) => (i === col(`'${textName}`) ? "'@новое" : i === col(numberName) ? "'-7" : c)) : r,
    );
    const done = await importG(Papa.unparse(edited), false);
    expect(done.body.applied).toBe(2);
    const values = (await call(`/api/fields/for-entity/${ids[7]}?entity_type=asset`, { bearer: await admin() })).body as {
      def_id: string;
      field_data: unknown;
    }[];
    expect(values.find((v) => v.def_id === text)?.field_data).toBe("@новое");
    expect(values.find((v) => v.def_id === number)?.field_data).toBe(-7);
  });

  it("refuses a file without the asset_id column, naming the field", async () => {
    const r = await importOf("name,Тема\nальфа,x\n", true);
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].field).toBe("csv");
  });
});
