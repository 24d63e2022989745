import { describe, expect, it } from "vitest";
import { admin, call } from "./fixtures";
import { fieldsOf, mkAsset, mkTemplate, setValue } from "./fields.helpers";
import { randomBytes, uploadFile } from "./uploads.helpers";

/** pts: null or exactly [start, end], 0 ≤ start ≤ end ≤ the version's duration; range queries by overlap. */

describe("pts", () => {
  it.each([
    ["null", null, 200],
    ["[1,2]", [1, 2], 200],
    ["[2,1]", [2, 1], 400],
    ["[1]", [1], 400],
    ["[1,2,3]", [1, 2, 3], 400],
    ['["a",1]', ["a", 1], 400],
    ["[-1,2]", [-1, 2], 400],
    ["past the duration", [5, 12.5], 400],
    ["up to the duration", [5, 12], 200],
  ])("%s answers %s", async (_, pts, status) => {
    const bearer = await admin();
    const asset = await mkAsset();
    const { done } = await uploadFile(bearer, asset, randomBytes(32));
    await call(`/api/asset/variant-tech-props/${done.variant_id}`, { method: "PATCH", json: { duration: 12 }, bearer });
    const def = await mkTemplate("text");
    const r = await setValue({ entity_id: asset, def_id: def, field_data: "x", pts });
    expect(r.status, r.text).toBe(status);
    if (status === 400) expect(fieldsOf(r).some((f) => f === "pts" || f.startsWith("pts."))).toBe(true);
  });

  it("a version that does not exist is a 400 naming asset_version; change checks pts too", async () => {
    const asset = await mkAsset();
    const def = await mkTemplate("text");
    expect(fieldsOf(await setValue({ entity_id: asset, def_id: def, field_data: "x", asset_version: 3 }))).toContain("asset_version");
    const made = await setValue({ entity_id: asset, def_id: def, field_data: "x", pts: [1, 2] });
    const bad = await call(`/api/fields/change/${made.body.field_id}`, { method: "PATCH", json: { pts: [3, 1] }, bearer: await admin() });
    expect(fieldsOf(bad)).toContain("pts");
    const moved = await call(`/api/fields/change/${made.body.field_id}`, { method: "PATCH", json: { pts: [3, 4] }, bearer: await admin() });
    expect(moved.body).toMatchObject({ pts: [3, 4], field_data: "x" });
  });
});

describe("for-entity ranges, versions and defs", () => {
  it("keeps the values whose pts overlap [pts_from, pts_to]", async () => {
    const bearer = await admin();
    const asset = await mkAsset();
    await uploadFile(bearer, asset, randomBytes(16));
    await uploadFile(bearer, asset, randomBytes(16));
    const def = await mkTemplate("text");
    const other = await mkTemplate("bool");
    const put = (field_data: string, pts: [number, number] | null, asset_version?: number) =>
      setValue({ entity_id: asset, def_id: def, field_data, pts, asset_version });
    for (const [data, pts, version] of [
      ["0-10", [0, 10]],
      ["10-20", [10, 20]],
      ["25-30", [25, 30], 2],
      ["всё", null],
    ] as const) {
      const r = await put(data, pts as [number, number] | null, version);
      expect(r.status, r.text).toBe(200);
    }
    await setValue({ entity_id: asset, def_id: other, field_data: true, pts: [12, 13] });
    const names = async (q: string) =>
      ((await call(`/api/fields/for-entity/${asset}?${q}`, { bearer })).body as { field_data: unknown }[]).map((v) => v.field_data);
    expect(await names(`pts_from=5&pts_to=12&defs=${def}`)).toEqual(["0-10", "10-20"]);
    expect(await names(`pts_from=20.5&pts_to=24&defs=${def}`)).toEqual([]);
    expect(await names(`pts_from=20&pts_to=25&defs=${def}`)).toEqual(["10-20", "25-30"]);
    expect(await names("pts_from=12&pts_to=12")).toEqual(["10-20", true]);
    expect(await names(`version=2&defs=${def}`)).toEqual(["всё", "0-10", "10-20", "25-30"]);
    expect(await names(`version=1&defs=${def}`)).toEqual(["всё", "0-10", "10-20"]);
    expect(await names(`defs=${other}`)).toEqual([true]);
    expect((await call(`/api/fields/for-entity/${asset}?defs=nope`, { bearer })).status).toBe(400);
  });
});
