import { describe, expect, it } from "vitest";
import { isOpenPath } from "../../app/lib/api";
import { admin } from "./fixtures";
import { api } from "./helpers";
import { concrete, operations } from "./openapi-walk";

/**
 * "No sign-in needed" is declared once, `security: []` on a route's definition; the bearer check reads
 * it from there. Every such route is served without a bearer, every other one answers 401.
 */

const signInRequired = "Требуется вход в систему";

describe("routes without sign-in", () => {
  it("are exactly the ones whose definition says security: []", async () => {
    const { ops } = await operations(await admin());
    const open = ops.filter((o) => o.open).map((o) => `${o.method} ${o.path}`);
    // The known open set: sign-in and its SSO, version, health, the transcoder's callbacks, share links, signed URLs.
    expect(open).toEqual(
      expect.arrayContaining([
        "POST /api/auth/login",
        "GET /api/auth/refresh",
        "GET /api/health",
        "GET /api/sl/{id}/play",
        "GET /api/media/{id}",
        "GET /api/wopi/files/{id}",
        "POST /api/shop/webhook/stripe",
        "POST /api/udwf/hook/{id}/{secret}",
      ]),
    );
    // The WOPI file routes (an access token in the query) and the two incoming webhooks (signed) joined the set.
    expect(open.length).toBeLessThan(40);
    for (const op of ops) {
      const body = op.method === "GET" || op.method === "HEAD" ? undefined : "{}";
      const headers = body ? { "Content-Type": "application/json" } : undefined;
      const res = await api(concrete(op.path), { method: op.method, body, headers, redirect: "manual" });
      const text = await res.text();
      const what = `${op.method} ${op.path} without a bearer`;
      if (op.open) expect(text, what).not.toContain(signInRequired);
      else {
        expect(res.status, what).toBe(401);
        expect(JSON.parse(text).error.message, what).toBe(signInRequired);
      }
    }
  }, 120_000);

  it("the browser's client sends no bearer exactly to the open sign-in, version and health calls", async () => {
    const { ops } = await operations(await admin());
    for (const op of ops.filter((o) => /^\/api\/(auth|version|health)/.test(o.path))) {
      expect(isOpenPath(concrete(op.path).slice("/api".length)), `${op.method} ${op.path}`).toBe(op.open);
    }
  });
});
