import { describe, expect, it } from "vitest";
import { membersOrder } from "../../app/components/mam/sort";

describe("membersOrder (the contents pane's sort control as members API params)", () => {
  it("maps each choice to the server's sort, the direction to its order", () => {
    expect(membersOrder("none", "asc")).toEqual({ sort: undefined, order: "asc" });
    expect(membersOrder("none", "desc")).toEqual({ sort: undefined, order: "desc" });
    expect(membersOrder("name", "asc")).toEqual({ sort: "name", order: "asc" });
    expect(membersOrder("date", "desc")).toEqual({ sort: "ctime", order: "desc" });
    expect(membersOrder("size", "asc")).toEqual({ sort: "size", order: "asc" });
  });
});
