import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../functions/lib/env";
import { api, errorOf } from "./helpers";

/**
 * The Worker's variables are checked with zod before routing (functions/middleware/env-check.ts): anything
 * wrong answers every API request with one 500 naming the variables, logged once per isolate.
 */

const healthWith = (vars: Partial<Env>) => api("/api/health", { env: { ...(env as unknown as Env), ...vars } });

afterEach(() => vi.restoreAllMocks());

describe("the Worker's variables", () => {
  it("as the suite runs them are fine", async () => {
    expect((await healthWith({})).status).toBe(200);
    expect(
      (await healthWith({ PUBLIC_URL: "https://mam.example", TRANSCODER_URL: "https://tc.example", DEFAULT_QUOTA_BYTES: "1000" })).status,
    ).toBe(200);
  });

  it.each<[string, Partial<Env>, string[]]>([
    ["no JWT_SECRET", { JWT_SECRET: undefined as unknown as string }, ["JWT_SECRET"]],
    ["a short JWT_SECRET", { JWT_SECRET: "short" }, ["JWT_SECRET"]],
    ["SSO_PROVIDERS not JSON", { SSO_PROVIDERS: "[{oops" }, ["SSO_PROVIDERS"]],
    ["SSO_PROVIDERS of the wrong shape", { SSO_PROVIDERS: '[{"name":"x"}]' }, ["SSO_PROVIDERS"]],
    ["PUBLIC_URL not a URL", { PUBLIC_URL: "mam.example" }, ["PUBLIC_URL"]],
    ["MEDIA_ORIGIN not a URL", { MEDIA_ORIGIN: "media" }, ["MEDIA_ORIGIN"]],
    ["TRANSCODER_URL without PUBLIC_URL", { TRANSCODER_URL: "https://tc.example", PUBLIC_URL: "" }, ["PUBLIC_URL"]],
    ["DEFAULT_QUOTA_BYTES not a number", { DEFAULT_QUOTA_BYTES: "10GB" }, ["DEFAULT_QUOTA_BYTES"]],
    ["UDWF_SEND_PER_HOUR not a count", { UDWF_SEND_PER_HOUR: "many" }, ["UDWF_SEND_PER_HOUR"]],
    ["UDWF_SEND_TEAM not a group id", { UDWF_SEND_TEAM: "marketing" }, ["UDWF_SEND_TEAM"]],
    [
      "several at once",
      { JWT_SECRET: "short", DEFAULT_QUOTA_BYTES: "-1", TRANSCODER_URL: "not a url" },
      ["JWT_SECRET", "DEFAULT_QUOTA_BYTES", "TRANSCODER_URL"],
    ],
  ])("%s: one 500 naming the variables", async (_, vars, named) => {
    const res = await healthWith(vars);
    expect(res.status).toBe(500);
    const error = await errorOf(res);
    expect(error.code).toBe("internal");
    for (const name of named) expect(error.message).toContain(name);
  });

  it("logs the reason once per isolate, not on every request", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const bad = { ...(env as unknown as Env), DEFAULT_QUOTA_BYTES: "lots" };
    for (let i = 0; i < 3; i++) expect((await api("/api/health", { env: bad })).status).toBe(500);
    expect(log.mock.calls.filter((c) => String(c[0]).includes("DEFAULT_QUOTA_BYTES"))).toHaveLength(1);
  });
});
