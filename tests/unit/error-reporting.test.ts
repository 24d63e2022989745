import { describe, expect, it } from "vitest";
import { browserReportingOptions, REPLAY_ON_ERROR_RATE, REPLAY_SESSION_RATE } from "../../app/lib/error-reporting-options";
import { publicEnv } from "../../app/lib/public-env";
import { reportError, reportingOrigin, sentryOptions, setErrorReporter } from "../../functions/lib/error-reporting";

/** Error reporting's settings (docs/decisions/044-metrics-logs-errors.md): rates, release, request id, scrubbing. */

const dsn = "https://publickey@o1.ingest.example.com/42";
const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln";

describe("the browser's options", () => {
  const options = browserReportingOptions(dsn, "build-7", { name: "Replay" });

  it("sends every error, replays 10% of sessions and every session with an error, under the build's release", () => {
    expect(options).toMatchObject({ dsn, release: "build-7", sampleRate: 1, replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1 });
    expect([REPLAY_SESSION_RATE, REPLAY_ON_ERROR_RATE]).toEqual([0.1, 1]);
    expect(options.integrations).toEqual([{ name: "Replay" }]);
  });

  it("tags an API error's report with its request id, and scrubs it", () => {
    const apiError = Object.assign(new Error("x"), { requestId: "req-42" });
    const event = { message: `Bearer ${jwt} on /sl/Q3xZ9aBcDeFgHiJkLmNoPq`, tags: { area: "upload" } };
    const sent = options.beforeSend(event, { originalException: apiError });
    expect(sent.tags).toEqual({ area: "upload", request_id: "req-42" });
    expect(JSON.stringify(sent)).not.toContain(jwt);
    expect(JSON.stringify(sent)).not.toContain("Q3xZ9aBcDeFgHiJkLmNoPq");
  });

  it("adds no request id when the error has none, and scrubs breadcrumbs", () => {
    expect(options.beforeSend({ message: "m" }, { originalException: new Error("x") })).toEqual({ message: "m" });
    expect(options.beforeBreadcrumb({ data: { url: "/api/sl/abc/unlock?password=p" } })).toEqual({
      data: { url: "/api/sl/[id]/unlock?[Filtered]" },
    });
  });
});

describe("the Worker's options", () => {
  it("sends every error under the release, through the scrubber", () => {
    const options = sentryOptions({ SENTRY_DSN: dsn }, "build-7");
    expect(options).toMatchObject({ dsn, release: "build-7", sampleRate: 1 });
    const scrubbed = options.beforeSend!(
      { type: undefined, request: { headers: { Authorization: `Bearer ${jwt}`, Accept: "*/*" } } } as never,
      {},
    ) as { request: { headers: Record<string, string> } };
    expect(scrubbed.request.headers).toEqual({ Accept: "*/*" });
  });

  it("names the DSN's origin for the pages' connect-src, and nothing without a DSN", () => {
    expect(reportingOrigin({ SENTRY_DSN: dsn })).toBe("https://o1.ingest.example.com");
    expect(reportingOrigin({})).toBeNull();
    expect(reportingOrigin({ SENTRY_DSN: "not a url" })).toBeNull();
  });
});

describe("reportError", () => {
  it("hands a 500's error and request id to the reporter only when a DSN is set", () => {
    const seen: [unknown, string][] = [];
    setErrorReporter((err, requestId) => seen.push([err, requestId]));
    const err = new Error("boom");
    reportError(err, {}, "req-1");
    reportError(err, undefined, "req-2");
    reportError(err, { SENTRY_DSN: dsn }, "req-3");
    expect(seen).toEqual([[err, "req-3"]]);
  });
});

describe("publicEnv", () => {
  it("passes the allow-listed names only", () => {
    expect(publicEnv({ SENTRY_DSN: dsn, JWT_SECRET: "s3cret", ADMIN_PASSWORD: "pw" })).toEqual({ SENTRY_DSN: dsn });
    expect(publicEnv({ SENTRY_DSN: "" })).toEqual({});
  });
});
