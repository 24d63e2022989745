import { describe, expect, it } from "vitest";
import { requestLine, UNMATCHED } from "../../functions/lib/request-line";

/** The Worker's per-request log line (functions/lib/request-line.ts): fixed fields, nothing a caller sent. */
describe("requestLine", () => {
  const facts = {
    requestId: "5b1f0c5e-0f4e-4a53-9a43-3d0c9b0e2f11",
    method: "GET",
    route: "/api/sl/:id",
    status: 200,
    durationMs: 12.345,
    userId: "u-1",
  };

  it("is one JSON line with the request id, route pattern, method, status, duration and user", () => {
    const line = requestLine(facts);
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      type: "request",
      request_id: facts.requestId,
      method: "GET",
      route: "/api/sl/:id",
      status: 200,
      duration_ms: 12.3,
      user_id: "u-1",
    });
  });

  it("names an unmatched request by a fixed label, and an anonymous one by null", () => {
    expect(JSON.parse(requestLine({ ...facts, route: null, userId: undefined }))).toMatchObject({ route: UNMATCHED, user_id: null });
  });

  it("carries nothing but its fields, whatever else the caller's object holds", () => {
    const secretish = {
      ...facts,
      authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.secret",
      url: "/api/sl/AbCdEfGhIjKlMnOpQrStUv?password=hunter2&token=mam_abc",
      body: { passwd: "hunter2" },
    };
    const line = requestLine(secretish);
    for (const s of ["eyJ", "hunter2", "mam_abc", "AbCdEfGhIjKlMnOpQrStUv", "password", "token"]) expect(line).not.toContain(s);
    expect(Object.keys(JSON.parse(line)).sort()).toEqual(["duration_ms", "method", "request_id", "route", "status", "type", "user_id"]);
  });
});
