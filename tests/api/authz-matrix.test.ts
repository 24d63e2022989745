import { describe, expect, it } from "vitest";
import { davRoutes } from "../../functions/dav";
import { api as app } from "../../functions/index";
import { routeCases } from "./authz";

/**
 * The authorization matrix covers every route the app registers. The calls themselves run in the
 * authz-*.test.ts files (tests/api/authz/matrix.ts), one per few resources.
 */

const registered = [...new Set([...app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`), ...davRoutes])].sort();
const declared = routeCases.map((c) => c.route);

describe("route coverage", () => {
  it("every registered route declares its expectations", () => {
    expect(registered.filter((r) => !declared.includes(r))).toEqual([]);
  });

  it("declares no route the app does not register, and none twice", () => {
    expect(declared.filter((r) => !registered.includes(r))).toEqual([]);
    expect(declared.filter((r, i) => declared.indexOf(r) !== i)).toEqual([]);
  });
});
