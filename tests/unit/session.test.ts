import { describe, expect, it } from "vitest";
import { expiresSoon, jwtExpiry } from "../../app/lib/session";
import { isQueueDone, type UploadItem, type UploadStatus } from "../../app/lib/uploads";
import { shouldOfferUpdate } from "../../app/lib/version";

describe("expiresSoon (refresh margin 120 s)", () => {
  const now = 1_700_000_000_000;
  it.each([
    [now / 1000 + 119, true],
    [now / 1000 + 121, false],
    [now / 1000 - 5, true],
  ])("expire %s → %s", (expire, soon) => {
    expect(expiresSoon({ bearer: "b", expire }, now)).toBe(soon);
  });
  it("never for a token without a known expiry", () => {
    expect(expiresSoon({ bearer: "b", expire: null }, now)).toBe(false);
  });
});

describe("jwtExpiry", () => {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  it("reads exp from the payload", () => {
    expect(jwtExpiry(`${encode({ alg: "HS256" })}.${encode({ sub: "u", exp: 1893456000 })}.sig`)).toBe(1893456000);
  });
  it("is null for anything else", () => {
    expect(jwtExpiry("opaque-token")).toBeNull();
    expect(jwtExpiry(`${encode({})}.${encode({ sub: "u" })}.sig`)).toBeNull();
    expect(jwtExpiry("a.%%%.c")).toBeNull();
  });
});

describe("isQueueDone (every item completed or error)", () => {
  const item = (status: UploadStatus): UploadItem => ({
    file: new File(["x"], "x.txt"),
    groupId: "g",
    assetId: null,
    ctime: 0,
    status,
    progress: 0,
    key: status,
    uploadId: null,
    loaded: 0,
  });
  it("is done when every item is completed or error", () => {
    expect(isQueueDone([])).toBe(true);
    expect(isQueueDone([item("completed"), item("error")])).toBe(true);
  });
  it.each(["waiting", "uploading", "uploaded", "saving", "busy"] as const)("is not done with an item %s", (status) => {
    expect(isQueueDone([item("completed"), item(status)])).toBe(false);
  });
});

describe("shouldOfferUpdate", () => {
  it("offers a different build once", () => {
    expect(shouldOfferUpdate("b2", "b1", null)).toBe(true);
    expect(shouldOfferUpdate("b1", "b1", null)).toBe(false);
    expect(shouldOfferUpdate("b2", "b1", "b2")).toBe(false);
    expect(shouldOfferUpdate("b3", "b1", "b2")).toBe(true);
  });
});
