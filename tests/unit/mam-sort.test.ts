import { describe, expect, it } from "vitest";
import type { Member } from "../../app/components/mam/mam-api";
import { sortMembers } from "../../app/components/mam/sort";

const asset = (name: string, ctime: number, size: number): Member => ({
  el_id: name,
  el_type: "asset",
  el_info: { name, mimetype: "text/plain", ctime, ver: 1, var: "v", var_size: size },
});
const group = (name: string): Member => ({ el_id: name, el_type: "group", el_info: { name, mimetype: null, ctime: 0, ver: null, var: null, var_size: null } });

const items = [group("Яблоки"), group("арбузы"), asset("файл 10.txt", 3, 50), asset("Файл 2.txt", 1, 700), asset("альфа.txt", 2, 10)];
const names = (list: Member[]) => list.map((m) => m.el_info.name);

describe("sortMembers (the contents pane's sort over loaded items)", () => {
  it("keeps the server's order, or reverses it", () => {
    expect(sortMembers(items, "none", "asc")).toBe(items);
    expect(names(sortMembers(items, "none", "desc"))).toEqual(names([...items].reverse()));
  });

  it("sorts names case-insensitively with numbers in numeric order, groups first", () => {
    expect(names(sortMembers(items, "name", "asc"))).toEqual(["арбузы", "Яблоки", "альфа.txt", "Файл 2.txt", "файл 10.txt"]);
    expect(names(sortMembers(items, "name", "desc"))).toEqual(["Яблоки", "арбузы", "файл 10.txt", "Файл 2.txt", "альфа.txt"]);
  });

  it("sorts by date and by size, groups still first", () => {
    expect(names(sortMembers(items, "date", "asc")).slice(2)).toEqual(["Файл 2.txt", "альфа.txt", "файл 10.txt"]);
    expect(names(sortMembers(items, "size", "desc")).slice(2)).toEqual(["Файл 2.txt", "файл 10.txt", "альфа.txt"]);
    expect(sortMembers(items, "size", "desc").slice(0, 2).every((m) => m.el_type === "group")).toBe(true);
  });
});
