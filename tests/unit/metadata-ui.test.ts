import { describe, expect, it } from "vitest";
import { moved } from "../../app/components/metadata/OrderedTemplates";
import { tabOf } from "../../app/components/metadata/tab-data";
import { taxonRows } from "../../app/components/metadata/taxon-tree";
import { secondsToText, textToSeconds } from "../../app/components/metadata/time-text";

/** The plain parts of the metadata admin screens: time fields, ordering, the taxonomy rows, the tab in the address. */
describe("time fields", () => {
  it("show seconds padded as hh:mm:ss", () => {
    expect(secondsToText(0)).toBe("00:00:00");
    expect(secondsToText(3661)).toBe("01:01:01");
    expect(secondsToText(360000)).toBe("100:00:00");
    expect(secondsToText(null)).toBe("");
  });

  it("read hh:mm:ss, mm:ss and plain seconds back", () => {
    expect(textToSeconds("01:01:01")).toBe(3661);
    expect(textToSeconds("2:05")).toBe(125);
    expect(textToSeconds("90")).toBe(90);
    expect(textToSeconds(" 00:00:07 ")).toBe(7);
  });

  it("refuse what is not a time, and a time of day past midnight", () => {
    for (const bad of ["", "a", "1:2:3:4", "00:61:00", "00:00:60", "-1", "1.5"]) expect(textToSeconds(bad)).toBeNull();
    expect(textToSeconds("24:00:00", true)).toBeNull();
    expect(textToSeconds("23:59:59", true)).toBe(86399);
    expect(textToSeconds("24:00:00")).toBe(86400);
  });
});

describe("moved", () => {
  it("swaps an item with its neighbour and leaves the ends alone", () => {
    expect(moved(["a", "b", "c"], 1, -1)).toEqual(["b", "a", "c"]);
    expect(moved(["a", "b", "c"], 1, 1)).toEqual(["a", "c", "b"]);
    expect(moved(["a", "b"], 0, -1)).toEqual(["a", "b"]);
    expect(moved(["a", "b"], 1, 1)).toEqual(["a", "b"]);
  });
});

describe("taxonRows", () => {
  it("gives each taxon of the flat tree its depth and path in the answer's order", () => {
    const rows = taxonRows([
      { taxon_id: "1", name: "Природа", parent: null, depth: 1 },
      { taxon_id: "2", name: "Животные", parent: "1", depth: 2 },
      { taxon_id: "3", name: "Кошки", parent: "2", depth: 3 },
      { taxon_id: "4", name: "Техника", parent: null, depth: 1 },
    ]);
    expect(rows.map((r) => [r.path, r.depth])).toEqual([
      ["Природа", 0],
      ["Природа/Животные", 1],
      ["Природа/Животные/Кошки", 2],
      ["Техника", 0],
    ]);
  });
});

describe("tabOf", () => {
  it("opens the tab named in the address, the templates otherwise", () => {
    expect(tabOf(new URLSearchParams("tab=tags"))).toBe("tags");
    expect(tabOf(new URLSearchParams("tab=nope"))).toBe("templates");
    expect(tabOf(new URLSearchParams())).toBe("templates");
  });
});
