import { describe, expect, it } from "vitest";
import { kindOf } from "../../app/components/mam/Thumb";
import { isDocumentMime } from "../../shared/lib/mime";

describe("document types (spec 9: the compound-file type or an application type containing 'document')", () => {
  it.each([
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.oasis.opendocument.text",
    "application/x-ole-storage",
    "application/x-cfb",
    "Application/VND.MS-Office; charset=binary",
  ])("%s is a document", (mime) => expect(isDocumentMime(mime)).toBe(true));

  it.each(["text/document", "application/pdf", "application/zip", "image/png", "", null, undefined])("%s is not", (mime) =>
    expect(isDocumentMime(mime)).toBe(false),
  );

  it("the browser shows a document with its own icon, and a PDF stays a PDF", () => {
    expect(kindOf("asset", "application/vnd.oasis.opendocument.text")).toBe("document");
    expect(kindOf("asset", "application/pdf")).toBe("pdf");
    expect(kindOf("group", "application/x-ole-storage")).toBe("folder");
  });
});
