import { describe, expect, it } from "vitest";
import { admin, call } from "./fixtures";
import { mkAsset, mkTemplate, setValue } from "./fields.helpers";

/**
 * POST /api/fields/create-list with `replace` (decision 039): a "set" over many assets replaces each one's value of the
 * field without a time code, keeps time-coded values and other fields, all in one batch.
 */

const valuesOf = async (asset: string) =>
  (await call(`/api/fields/for-entity/${asset}?entity_type=asset`, { bearer: await admin() })).body as {
    def_id: string;
    field_data: unknown;
    pts: [number, number] | null;
  }[];

describe("setting a field on many assets", () => {
  it("replaces the whole-asset value and keeps the rest; without replace it adds", async () => {
    const [topic, other] = [await mkTemplate("text"), await mkTemplate("text")];
    const [a, b] = [await mkAsset(), await mkAsset()];
    await setValue({ entity_id: a, def_id: topic, field_data: "старое" });
    await setValue({ entity_id: a, def_id: topic, field_data: "эпизод", pts: [1, 2] });
    await setValue({ entity_id: a, def_id: other, field_data: "не трогать" });

    const r = await call("/api/fields/create-list", {
      method: "POST",
      bearer: await admin(),
      json: { replace: true, values: [a, b].map((id) => ({ entity_id: id, entity_type: "asset", def_id: topic, field_data: "новое" })) },
    });
    expect(r.status).toBe(200);
    const onA = await valuesOf(a);
    expect(onA.filter((v) => v.def_id === topic && v.pts === null).map((v) => v.field_data)).toEqual(["новое"]);
    expect(onA.filter((v) => v.def_id === topic && v.pts !== null).map((v) => v.field_data)).toEqual(["эпизод"]);
    expect(onA.filter((v) => v.def_id === other).map((v) => v.field_data)).toEqual(["не трогать"]);
    expect((await valuesOf(b)).map((v) => v.field_data)).toEqual(["новое"]);

    await call("/api/fields/create-list", {
      method: "POST",
      bearer: await admin(),
      json: { values: [{ entity_id: b, entity_type: "asset", def_id: topic, field_data: "ещё" }] },
    });
    expect((await valuesOf(b)).map((v) => v.field_data).sort()).toEqual(["ещё", "новое"]);
  });

  it("replaces nothing when one value is invalid: all or nothing", async () => {
    const count = await mkTemplate("number");
    const asset = await mkAsset();
    await setValue({ entity_id: asset, def_id: count, field_data: 1 });
    const r = await call("/api/fields/create-list", {
      method: "POST",
      bearer: await admin(),
      json: {
        replace: true,
        values: [
          { entity_id: asset, entity_type: "asset", def_id: count, field_data: 2 },
          { entity_id: asset, entity_type: "asset", def_id: count, field_data: "три" },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect((await valuesOf(asset)).map((v) => v.field_data)).toEqual([1]);
  });
});
