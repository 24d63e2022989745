import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { events, fieldValues } from "../../db/schema";
import { admin, call, db, grant, mkGroup, mkPerson, VIRTUAL_ROOT } from "./fixtures";
import { fieldsOf, mkAsset, mkList, mkTemplate, setValue } from "./fields.helpers";

/** Values of every field type: each good one round-trips through for-entity, each bad one is a 400 naming the field. */

describe("field types", () => {
  it("every type round-trips its value", async () => {
    const asset = await mkAsset();
    const group = await mkGroup(VIRTUAL_ROOT);
    const user = await mkPerson();
    const list = await mkList(["Москва", "Казань"]);
    const sub = await mkTemplate("number");
    const cases: [string, Record<string, unknown>, unknown][] = [
      ["text", {}, "Интервью с режиссёром"],
      ["text", { multiline: true, max_length: 100 }, "строка 1\nстрока 2"],
      ["text", { list_id: list }, "Казань"],
      ["text", { list_id: list, multiple: true }, ["Москва", "Казань"]],
      ["number", { min: 0, max: 10, step: 0.5, unit: "с" }, 7.5],
      ["date", {}, "2026-11-23"],
      ["date", { with_time: true }, "2026-11-23T10:20:30Z"],
      ["time", { kind: "duration" }, 3725],
      ["time", { kind: "time_of_day" }, 86_399],
      ["asset", {}, asset],
      ["asset", { multiple: true }, [asset]],
      ["group", {}, group],
      ["user", {}, user.id],
      ["region", {}, { x: 0.1, y: 0.2, w: 0.5, h: 0.5 }],
      ["struct", { fields: [sub] }, { [sub]: 4 }],
      ["bool", {}, true],
    ];
    const target = await mkAsset();
    for (const [type, setup, data] of cases) {
      const def = await mkTemplate(type, setup);
      const made = await setValue({ entity_id: target, def_id: def, field_data: data });
      expect(made.status, `${type} ${made.text}`).toBe(200);
      const got = await call(`/api/fields/for-entity/${target}?defs=${def}`, { bearer: await admin() });
      expect(got.body).toEqual([
        {
          field_id: made.body.field_id,
          entity_id: target,
          entity_type: "asset",
          asset_version: null,
          pts: null,
          field_data: data,
          def_id: def,
        },
      ]);
    }
  });

  it("each invalid value is a 400 naming the field, and nothing is written", async () => {
    const target = await mkAsset();
    const list = await mkList(["Москва"]);
    const hidden = await mkAsset(); // in a group the editor cannot read
    const sub = await mkTemplate("bool");
    const cases: [string, Record<string, unknown>, unknown, string][] = [
      ["text", {}, 5, "field_data"],
      ["text", { max_length: 3 }, "длинно", "field_data"],
      ["text", {}, "две\nстроки", "field_data"],
      ["text", { list_id: list }, "Тверь", "field_data"],
      ["text", { multiple: true }, "не список", "field_data"],
      ["text", { multiple: true }, ["a", 1], "field_data.1"],
      ["number", {}, "5", "field_data"],
      ["number", { min: 0, max: 10 }, 11, "field_data"],
      ["number", { step: 0.5 }, 0.3, "field_data"],
      ["date", {}, "23.11.2026", "field_data"],
      ["date", {}, "2026-11-23T10:00:00Z", "field_data"],
      ["time", {}, -1, "field_data"],
      ["time", { kind: "time_of_day" }, 86_400, "field_data"],
      ["asset", {}, "не-uuid", "field_data"],
      ["asset", {}, crypto.randomUUID(), "field_data"],
      ["asset", {}, hidden, "field_data"],
      ["group", {}, target, "field_data"],
      ["user", {}, crypto.randomUUID(), "field_data"],
      ["region", {}, { x: 0.8, y: 0, w: 0.5, h: 0.1 }, "field_data"],
      ["region", {}, { x: 0, y: 0, w: 2, h: 0.1 }, "field_data"],
      ["struct", { fields: [sub] }, { [sub]: "да" }, `field_data.${sub}`],
      ["struct", { fields: [sub] }, { [crypto.randomUUID()]: true }, "field_data"],
      ["bool", {}, "true", "field_data"],
    ];
    const editor = await mkPerson();
    const group = await mkGroup(VIRTUAL_ROOT);
    const own = await mkAsset(group);
    await grant(editor.id, group, ["read", "update"]);
    for (const [type, setup, data, field] of cases) {
      const def = await mkTemplate(type, setup);
      const r = await setValue({ entity_id: own, def_id: def, field_data: data }, editor.bearer);
      expect(r.status, `${type} ${JSON.stringify(data)} ${r.text}`).toBe(400);
      expect(
        fieldsOf(r).some((f) => f === field || f.startsWith(`${field}.`)),
        `${type}: ${fieldsOf(r)}`,
      ).toBe(true);
      expect(r.body.error.message).toMatch(/Неверные данные/);
    }
    expect((await call(`/api/fields/for-entity/${own}`, { bearer: editor.bearer })).body).toEqual([]);
    expect((await setValue({ entity_id: target, def_id: crypto.randomUUID(), field_data: 1 })).status).toBe(400);
  });
});

describe("values: rights, change, delete, create-list", () => {
  it("reading needs read, writing needs update; change and delete write events", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const asset = await mkAsset(group);
    const def = await mkTemplate("text");
    const reader = await mkPerson();
    const stranger = await mkPerson();
    await grant(reader.id, group, ["read"]);
    const made = await setValue({ entity_id: asset, def_id: def, field_data: "А" });
    expect((await call(`/api/fields/for-entity/${asset}`, { bearer: reader.bearer })).body).toHaveLength(1);
    expect((await call(`/api/fields/for-entity/${asset}`, { bearer: stranger.bearer })).status).toBe(404);
    expect((await setValue({ entity_id: asset, def_id: def, field_data: "Б" }, reader.bearer)).status).toBe(403);
    expect((await setValue({ entity_id: asset, def_id: def, field_data: "Б" }, stranger.bearer)).status).toBe(404);
    const id = made.body.field_id;
    expect((await call(`/api/fields/change/${id}`, { method: "PATCH", json: { field_data: "В" }, bearer: reader.bearer })).status).toBe(
      403,
    );
    expect((await call(`/api/fields/delete/${id}`, { method: "DELETE", bearer: stranger.bearer })).status).toBe(404);
    const changed = await call(`/api/fields/change/${id}`, { method: "PATCH", json: { field_data: "В" }, bearer: await admin() });
    expect(changed.body).toMatchObject({ field_id: id, field_data: "В" });
    expect((await call(`/api/fields/change/${id}`, { method: "PATCH", json: { field_data: 5 }, bearer: await admin() })).status).toBe(400);
    expect((await call(`/api/fields/delete/${id}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect((await call(`/api/fields/delete/${id}`, { method: "DELETE", bearer: await admin() })).status).toBe(404);
    const kinds = (await db().select().from(events).where(eq(events.entityId, asset))).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["field.create", "field.update", "field.delete"]));
  });

  it("deleting an asset deletes its values", async () => {
    const asset = await mkAsset();
    const def = await mkTemplate("bool");
    await setValue({ entity_id: asset, def_id: def, field_data: true });
    expect((await call(`/api/asset/${asset}`, { method: "DELETE", bearer: await admin() })).status).toBe(200);
    expect(await db().select().from(fieldValues).where(eq(fieldValues.entityId, asset))).toEqual([]);
  });

  it("values on a group need the group's rights; entity_type must match", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const def = await mkTemplate("bool");
    expect((await setValue({ entity_id: group, entity_type: "group", def_id: def, field_data: true })).status).toBe(200);
    expect((await setValue({ entity_id: group, entity_type: "asset", def_id: def, field_data: true })).status).toBe(404);
    const r = await setValue({ entity_id: group, entity_type: "group", def_id: def, field_data: true, asset_version: 1 });
    expect(fieldsOf(r)).toContain("asset_version");
  });

  it("create-list writes up to 1,000 values at once, all or nothing", async () => {
    const asset = await mkAsset();
    const def = await mkTemplate("number");
    const good = Array.from({ length: 1000 }, (_, i) => ({
      entity_id: asset,
      entity_type: "asset",
      def_id: def,
      field_data: i,
      pts: [i, i + 1],
    }));
    const bad = [...good.slice(0, 10), { ...good[0], field_data: "x" }];
    const refused = await call("/api/fields/create-list", { method: "POST", json: { values: bad }, bearer: await admin() });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused)).toContain("values.10.field_data");
    expect((await call(`/api/fields/for-entity/${asset}`, { bearer: await admin() })).body).toEqual([]);
    const tooMany = await call("/api/fields/create-list", { method: "POST", json: { values: [...good, good[0]] }, bearer: await admin() });
    expect(fieldsOf(tooMany)).toContain("values");
    const made = await call("/api/fields/create-list", { method: "POST", json: { values: good }, bearer: await admin() });
    expect(made.status, made.text).toBe(200);
    expect(made.body.field_ids).toHaveLength(1000);
    expect((await call(`/api/fields/for-entity/${asset}`, { bearer: await admin() })).body).toHaveLength(1000);
  });
});
