import { env } from "cloudflare:test";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { Env } from "../../functions/lib/env";
import { api, errorOf, login } from "./helpers";

/** Keys derived per purpose from JWT_SECRET (functions/lib/keys.ts), and a secret too short to serve with. */

const claimsOf = (bearer: string) =>
  JSON.parse(atob(bearer.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { sub: string; sid: string };

describe("JWT_SECRET", () => {
  it("is not the bearer key itself: a token signed with the raw secret is refused", async () => {
    const { bearer } = await login();
    const { sub, sid } = claimsOf(bearer);
    const raw = await new SignJWT({ sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode(env.JWT_SECRET));
    expect((await api("/api/auth/whoami", { bearer: raw })).status).toBe(401);
    expect((await api("/api/auth/whoami", { bearer })).status).toBe(200);
  });

  it.each(["", "short-secret", "x".repeat(31)])("of %j refuses every API request with a 500 that says why", async (secret) => {
    const weak = { ...(env as unknown as Env), JWT_SECRET: secret };
    for (const path of ["/api/health", "/api/auth/login"]) {
      const res = await api(
        path,
        path.endsWith("login") ? { env: weak, method: "POST", json: { user: "admin", passwd: "x" } } : { env: weak },
      );
      expect(res.status).toBe(500);
      const error = await errorOf(res);
      expect(error.code).toBe("internal");
      expect(error.message).toContain("JWT_SECRET");
    }
  });
});
