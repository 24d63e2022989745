import { afterEach, describe, expect, it, vi } from "vitest";
import { configOf, envProblems, withBindings } from "../../functions/lib/config";

/** The Worker's variables parsed once into a typed config (functions/lib/config.ts, docs/decisions/069). */

const secret = { JWT_SECRET: "x".repeat(32) };

afterEach(() => vi.restoreAllMocks());

describe("configOf", () => {
  it("gives every default when nothing is set, and unset and blank are the same", () => {
    for (const env of [{}, { DEFAULT_QUOTA_BYTES: "", UDWF_SEND_PER_HOUR: " ", EMAIL_FROM: "", PUBLIC_URL: "  " }]) {
      expect(configOf(env).PUBLIC_URL).toBeUndefined();
      expect(configOf(env)).toMatchObject({
        MEDIA_ORIGIN: null,
        DEFAULT_QUOTA_BYTES: null,
        EVENTS_RETENTION_DAYS: null,
        UDWF_SEND_PER_HOUR: 1000,
        SSO_PROVIDERS: [],
        UPLOAD_SERVERS: [],
        UPLOAD_APP_ORIGINS: [],
        TASK_RETRY_BASE_SECONDS: 5,
        UDWF_RETRY_BASE_SECONDS: 5,
        TASK_WATCH_SECONDS: 30,
        WEBHOOK_ALLOW_PRIVATE: false,
        CHAT_MODEL: "default",
        EMAIL_FROM: "noreply@mam.local",
        ADMIN_LOGIN: "admin",
      });
    }
  });

  it("reads valid values into their types", () => {
    const config = configOf({
      PUBLIC_URL: "https://mam.example/",
      MEDIA_ORIGIN: "https://media.example/path",
      DEFAULT_QUOTA_BYTES: "1000",
      EVENTS_RETENTION_DAYS: "30",
      UDWF_SEND_PER_HOUR: "0",
      UDWF_RETRY_BASE_SECONDS: "0",
      WEBHOOK_ALLOW_PRIVATE: "true",
      UPLOAD_SERVERS: '[{"id": "eu", "url": "https://eu.example/api/ul/"}, {"id": "worker", "url": "https://self.example"}]',
      UPLOAD_APP_ORIGINS: "https://app.example/x, not a url, http://localhost:5173",
    });
    expect(config).toMatchObject({
      PUBLIC_URL: "https://mam.example",
      MEDIA_ORIGIN: "https://media.example",
      DEFAULT_QUOTA_BYTES: 1000,
      EVENTS_RETENTION_DAYS: 30,
      UDWF_SEND_PER_HOUR: 0,
      UDWF_RETRY_BASE_SECONDS: 0,
      WEBHOOK_ALLOW_PRIVATE: true,
      UPLOAD_SERVERS: [{ id: "eu", url: "https://eu.example/api/ul" }],
      UPLOAD_APP_ORIGINS: ["https://app.example", "http://localhost:5173"],
    });
  });

  it("reports an invalid value by name and uses its lenient reading meanwhile", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const env = { ...secret, UDWF_SEND_PER_HOUR: "many", EVENTS_RETENTION_DAYS: "1.5", MEDIA_ORIGIN: "media", SSO_PROVIDERS: "[{oops" };
    expect(envProblems(env).map((p) => p.variable)).toEqual([
      "MEDIA_ORIGIN",
      "EVENTS_RETENTION_DAYS",
      "UDWF_SEND_PER_HOUR",
      "SSO_PROVIDERS",
    ]);
    expect(envProblems(env).find((p) => p.variable === "UDWF_SEND_PER_HOUR")?.message).toBe(
      "не целое неотрицательное число отправок в час",
    );
    expect(configOf(env)).toMatchObject({ UDWF_SEND_PER_HOUR: 1000, EVENTS_RETENTION_DAYS: 1.5, MEDIA_ORIGIN: null, SSO_PROVIDERS: [] });
    expect(log).toHaveBeenCalledTimes(1);
  });

  it("checks the secret and the rules between variables, which the config itself does not carry", () => {
    expect(envProblems(secret)).toEqual([]);
    expect(envProblems({}).map((p) => p.variable)).toEqual(["JWT_SECRET"]);
    expect(envProblems({ ...secret, TRANSCODER_URL: "https://tc.example" })).toEqual([
      { variable: "PUBLIC_URL", message: expect.stringContaining("TRANSCODER_URL") },
    ]);
  });

  it("parses an env object once, and a copy with other bindings shares it", () => {
    const env = { ...secret, SSO_PROVIDERS: "[]" };
    expect(configOf(env)).toBe(configOf(env));
    expect(configOf(withBindings(env, {}))).toBe(configOf(env));
    expect(configOf({ ...env })).not.toBe(configOf(env));
  });
});
