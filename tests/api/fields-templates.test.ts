import { describe, expect, it } from "vitest";
import { admin, call, mkPerson } from "./fixtures";
import { fieldsOf, mkAsset, mkList, mkTemplate, setValue } from "./fields.helpers";

/** Field templates (setup typed per field_type, delete 409 while values exist), classes' def_fields, lists. */

describe("field templates", () => {
  it("CRUD: setup is checked against the type, defaults filled in", async () => {
    const bearer = await admin();
    const made = await call("/api/fields/templates", {
      method: "POST",
      json: { field_def_name: "Хронометраж", field_type: "time", field_priority: 3, field_def_extsys: "erp", field_def_extsys_key: "dur" },
      bearer,
    });
    const id = made.body.field_def_id;
    expect((await call(`/api/fields/templates/${id}`, { bearer })).body).toEqual({
      field_def_id: id,
      field_def_name: "Хронометраж",
      field_type: "time",
      field_setup: { kind: "duration" },
      field_priority: 3,
      field_def_extsys: "erp",
      field_def_extsys_key: "dur",
    });
    const user = await mkPerson();
    expect(
      (await call("/api/fields/templates", { bearer: user.bearer })).body.map((t: { field_def_id: string }) => t.field_def_id),
    ).toContain(id);
    const patched = await call(`/api/fields/templates/${id}`, { method: "PATCH", json: { field_setup: { kind: "time_of_day" } }, bearer });
    expect(patched.body.field_setup).toEqual({ kind: "time_of_day" });
    expect(
      (await call(`/api/fields/templates/${id}`, { method: "PATCH", json: { field_def_name: "x" }, bearer: user.bearer })).status,
    ).toBe(403);
  });

  it.each([
    ["field_type", { field_def_name: "a", field_type: "color" }],
    ["field_def_name", { field_type: "bool" }],
    ["field_setup.max", { field_def_name: "a", field_type: "number", field_setup: { max: "10" } }],
    ["field_setup", { field_def_name: "a", field_type: "bool", field_setup: { colour: 1 } }],
    ["field_setup.fields", { field_def_name: "a", field_type: "struct" }],
    ["field_setup.fields", { field_def_name: "a", field_type: "struct", field_setup: { fields: [crypto.randomUUID()] } }],
    ["field_setup.list_id", { field_def_name: "a", field_type: "text", field_setup: { list_id: crypto.randomUUID() } }],
    ["field_setup.kind", { field_def_name: "a", field_type: "time", field_setup: { kind: "week" } }],
  ])("a bad template is a 400 naming %s", async (field, json) => {
    const r = await call("/api/fields/templates", { method: "POST", json, bearer: await admin() });
    expect(r.status, r.text).toBe(400);
    expect(
      fieldsOf(r).some((f) => f === field || f.startsWith(`${field}.`)),
      fieldsOf(r).join(),
    ).toBe(true);
  });

  it("delete answers 409 while values exist, force deletes them; the type is fixed while values exist", async () => {
    const bearer = await admin();
    const def = await mkTemplate("number");
    const asset = await mkAsset();
    await setValue({ entity_id: asset, def_id: def, field_data: 1 });
    expect((await call(`/api/fields/templates/${def}`, { method: "PATCH", json: { field_type: "text" }, bearer })).status).toBe(409);
    expect((await call(`/api/fields/templates/${def}`, { method: "DELETE", bearer })).status).toBe(409);
    const cls = await call("/api/asset/class", { method: "POST", json: { name: `Класс ${def}`, def_fields: [def] }, bearer });
    expect((await call(`/api/fields/templates/${def}?force=true`, { method: "DELETE", bearer })).status).toBe(200);
    expect((await call(`/api/fields/for-entity/${asset}`, { bearer })).body).toEqual([]);
    expect((await call(`/api/fields/templates/${def}`, { bearer })).status).toBe(404);
    expect((await call("/api/asset/class-by-ids", { method: "POST", json: { ids: [cls.body.id] }, bearer })).body[0].def_fields).toEqual(
      [],
    );
    const unused = await mkTemplate("bool");
    expect((await call(`/api/fields/templates/${unused}`, { method: "DELETE", bearer })).status).toBe(200);
  });

  it("asset classes hold an ordered list of existing template ids", async () => {
    const bearer = await admin();
    const [a, b] = [await mkTemplate("text"), await mkTemplate("bool")];
    const cls = await call("/api/asset/class", { method: "POST", json: { name: `Класс ${a}`, def_fields: [b, a] }, bearer });
    expect(cls.body.def_fields).toEqual([b, a]);
    const bad = await call(`/api/asset/class/${cls.body.id}`, { method: "PATCH", json: { def_fields: [a, crypto.randomUUID()] }, bearer });
    expect(fieldsOf(bad)).toContain("def_fields");
    expect(fieldsOf(await call("/api/asset/class", { method: "POST", json: { name: "x", def_fields: ["duration"] }, bearer }))).toContain(
      "def_fields.0",
    );
    expect(fieldsOf(await call("/api/asset/class", { method: "POST", json: { name: "y", def_fields: [a, a] }, bearer }))).toContain(
      "def_fields",
    );
  });
});

describe("lists", () => {
  it("CRUD of lists and records, admins only for changes", async () => {
    const bearer = await admin();
    const user = await mkPerson();
    const list = await mkList(["Москва", "Казань"]);
    const recs = await call(`/api/lists/records/${list}`, { bearer: user.bearer });
    expect(recs.body.map((r: { rec_data: string }) => r.rec_data)).toEqual(["Москва", "Казань"]);
    expect(recs.body[0]).toEqual({ list_id: list, rec_id: expect.any(String), rec_data: "Москва" });
    expect((await call(`/api/lists/records/${list}`, { method: "POST", json: { rec_data: "Москва" }, bearer })).status).toBe(409);
    expect((await call(`/api/lists/records/${list}`, { method: "POST", json: { rec_data: "Тверь" }, bearer: user.bearer })).status).toBe(
      403,
    );
    expect(fieldsOf(await call(`/api/lists/records/${list}`, { method: "POST", json: { rec_data: "" }, bearer }))).toContain("rec_data");
    // A text field picks from the list; renaming a record carries its single values along.
    const def = await mkTemplate("text", { list_id: list });
    const asset = await mkAsset();
    await setValue({ entity_id: asset, def_id: def, field_data: "Казань" });
    const kazan = recs.body[1].rec_id;
    const renamed = await call(`/api/lists/records/${list}/${kazan}`, { method: "PATCH", json: { rec_data: "Казань-2" }, bearer });
    expect(renamed.body).toEqual({ list_id: list, rec_id: kazan, rec_data: "Казань-2" });
    expect((await call(`/api/fields/for-entity/${asset}`, { bearer })).body[0].field_data).toBe("Казань-2");
    expect((await call(`/api/lists/records/${list}/${kazan}`, { method: "DELETE", bearer })).status).toBe(200);
    expect((await call(`/api/lists/records/${list}`, { bearer })).body).toHaveLength(1);
    expect((await call(`/api/lists/${list}`, { method: "DELETE", bearer })).status).toBe(409);
    expect((await call("/api/lists", { bearer: user.bearer })).body).toContainEqual({ list_id: list, list_name: expect.any(String) });
    const spare = await mkList([]);
    expect((await call(`/api/lists/${spare}`, { method: "PATCH", json: { list_name: "Города запасные" }, bearer })).status).toBe(200);
    expect((await call(`/api/lists/${spare}`, { method: "DELETE", bearer })).status).toBe(200);
    expect((await call(`/api/lists/records/${spare}`, { bearer })).status).toBe(404);
  });
});
