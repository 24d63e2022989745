import { describe, expect, it } from "vitest";
import { fromBase64, fromBase64Url, fromHex, toBase64, toBase64Url, toHex } from "../../shared/lib/encoding";

const bytes = new Uint8Array([0, 1, 15, 16, 250, 251, 252, 253, 254, 255]);

describe("encoding (shared by the Worker and the browser)", () => {
  it("writes hex with two lower-case digits per byte and reads it back", () => {
    expect(toHex(bytes)).toBe("00010f10fafbfcfdfeff");
    expect(toHex(bytes.buffer)).toBe("00010f10fafbfcfdfeff");
    expect(fromHex("00010f10fafbfcfdfeff")).toEqual(bytes);
  });

  it("writes base64 and base64url (no padding, - and _) and reads both back", () => {
    expect(toBase64(bytes)).toBe("AAEPEPr7/P3+/w==");
    expect(toBase64Url(bytes)).toBe("AAEPEPr7_P3-_w");
    expect(fromBase64("AAEPEPr7/P3+/w==")).toEqual(bytes);
    expect(fromBase64Url("AAEPEPr7_P3-_w")).toEqual(bytes);
  });

  it("encodes large buffers (no spread into fromCharCode)", () => {
    const big = Uint8Array.from({ length: 300_000 }, (_, i) => i % 251);
    // Compared as bytes in one call: a deep equality over 300,000 elements takes seconds on a busy machine.
    expect(Buffer.compare(fromBase64(toBase64(big)), big)).toBe(0);
  });
});
