import { describe, expect, it } from "vitest";
import { editorPath, offersEdit, textKind } from "../../app/components/editor/editable";

const docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

describe("which files offer Редактировать", () => {
  it("office documents (spec 9) to any reader, text types only with update", () => {
    expect(offersEdit({ name: "Договор.docx", mimetype: docx, asset_access: ["read"] })).toBe(true);
    expect(offersEdit({ name: "old.doc", mimetype: "application/x-ole-storage", asset_access: ["read"] })).toBe(true);
    expect(offersEdit({ name: "a.txt", mimetype: "text/plain", asset_access: ["read"] })).toBe(false);
    expect(offersEdit({ name: "a.txt", mimetype: "text/plain", asset_access: ["read", "update"] })).toBe(true);
    expect(offersEdit({ name: "clip.mp4", mimetype: "video/mp4", asset_access: ["read", "update"] })).toBe(false);
    expect(offersEdit({ name: "scan.pdf", mimetype: "application/pdf", asset_access: ["read", "update"] })).toBe(false);
  });

  it("the built-in editor's kind by extension, then by type", () => {
    expect(textKind("README.MD", "application/octet-stream")).toBe("md");
    expect(textKind("subs.vtt", null)).toBe("vtt");
    expect(textKind("data", "application/json; charset=utf-8")).toBe("json");
    expect(textKind("notes", "text/plain")).toBe("txt");
    expect(textKind("page.html", "text/html")).toBeNull();
  });

  it("remembers where the user came from", () => {
    expect(editorPath("id-1", "/mam/g/asset/id-1?x=1")).toBe("/editor/id-1?from=%2Fmam%2Fg%2Fasset%2Fid-1%3Fx%3D1");
  });
});
