import { describe, expect, it } from "vitest";
import { viewVariant } from "../../shared/assets/variant-rights";
import { appliesTo } from "../../shared/tasks/schemas";

/** What the viewer shows of a version, and which templates a PDF gets (docs/decisions/073-pdf-pages-as-pictures.md). */
const v = (variant_type: string, mime_type: string) => ({ variant_type, mime_type });

describe("viewVariant", () => {
  it("shows a video's proxy before its original: lighter to load", () => {
    expect(viewVariant([v("initial", "video/mp4"), v("proxy_highres", "video/mp4"), v("proxy_lowres", "video/mp4")])).toEqual(
      v("proxy_highres", "video/mp4"),
    );
  });

  it("shows a PDF's original before its proxy of pictures, and the proxy when the original is not among them", () => {
    const proxy = v("proxy_lowres", "application/pdf");
    expect(viewVariant([proxy, v("initial", "application/pdf")])).toEqual(v("initial", "application/pdf"));
    expect(viewVariant([proxy, v("master", "application/pdf"), v("initial", "application/pdf")])).toEqual(v("master", "application/pdf"));
    // A reader without the download right is handed only the viewable variants.
    expect(viewVariant([proxy])).toEqual(proxy);
  });

  it("keeps an office document's PDF proxy before its original, which the browser cannot show", () => {
    const docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    expect(viewVariant([v("initial", docx), v("proxy_lowres", "application/pdf")])).toEqual(v("proxy_lowres", "application/pdf"));
  });
});

describe("appliesTo", () => {
  it("gives a PDF a preview and a document proxy, and no video proxy or watermark", () => {
    const pdf = "application/pdf";
    expect(["preview", "document_proxy", "proxy", "watermark"].map((c) => appliesTo(c as never, pdf))).toEqual([true, true, false, false]);
    expect(appliesTo("document_proxy", "video/mp4")).toBe(false);
  });

  it("gives a sound a preview (its waveform)", () => {
    expect(appliesTo("preview", "audio/mpeg")).toBe(true);
  });
});
