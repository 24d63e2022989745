import { describe, expect, it } from "vitest";
import { FILTERED, scrubBreadcrumb, scrubEvent, scrubString } from "../../shared/lib/scrub";

/** The error-report scrubber (shared/lib/scrub.ts): what must never reach Sentry, and what must stay readable. */

const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEiLCJzaWQiOiJzLTEifQ.c2lnbmF0dXJlLWJ5dGVz";
const linkId = "Q3xZ9aBcDeFgHiJkLmNoPq";
const robotToken = "mam_4f9K2pQ7xYz0LmNoPqRsTu";

const leaks = (value: unknown, secrets: string[]) => {
  const text = JSON.stringify(value);
  return secrets.filter((s) => text.includes(s));
};

describe("scrubString", () => {
  it("removes bearers, robot tokens and JWTs wherever they appear", () => {
    const s = scrubString(`Authorization: Bearer ${jwt}; retry with ${robotToken} or ${jwt}`);
    expect(leaks(s, [jwt, robotToken, "c2lnbmF0dXJl"])).toEqual([]);
    expect(s).toContain("Bearer [Filtered]");
  });

  it("replaces share-link ids in paths and URLs, keeping the shape", () => {
    expect(scrubString(`/sl/${linkId}`)).toBe("/sl/[id]");
    expect(scrubString(`GET /api/sl/${linkId}/download/v1 failed`)).toBe("GET /api/sl/[id]/download/v1 failed");
    expect(scrubString(`https://media.example.com/sl/${linkId}#player`)).toBe("https://media.example.com/sl/[id]#player");
  });

  it("drops query strings (signatures, tokens, names) and password assignments", () => {
    const s = scrubString(
      "PUT https://s3.example/bucket/obj?X-Amz-Signature=abc123&X-Amz-Credential=AKIA9 then password=hunter2, token: t0k3n",
    );
    expect(leaks(s, ["abc123", "AKIA9", "hunter2", "t0k3n"])).toEqual([]);
    expect(s).toContain("https://s3.example/bucket/obj?[Filtered]");
  });

  it("removes users' file names and the names the API quotes, but keeps code file names", () => {
    const s = scrubString(
      "Файл «Отпуск в Сочи» (clip_final v2.MOV, IMG_0042.jpg, отчёт.docx) failed at app/lib/api.ts and /assets/index-7zq.js",
    );
    expect(leaks(s, ["Отпуск", "clip_final", "IMG_0042", "отчёт"])).toEqual([]);
    expect(s).toContain("app/lib/api.ts");
    expect(s).toContain("/assets/index-7zq.js");
  });

  it("removes e-mail addresses", () => {
    expect(scrubString("mail to anna.k+mam@example.org failed")).toBe("mail to [email] failed");
  });

  it("leaves an ordinary message alone", () => {
    expect(scrubString("TypeError: Cannot read properties of undefined (reading 'id')")).toBe(
      "TypeError: Cannot read properties of undefined (reading 'id')",
    );
  });
});

describe("scrubEvent", () => {
  const event = () => ({
    event_id: "e1",
    message: `upload of «holiday.mp4» to /api/sl/${linkId} failed`,
    request: {
      url: `https://mam.example/api/sl/${linkId}/download?sig=s1gnature`,
      method: "GET",
      query_string: "sig=s1gnature&name=holiday.mp4",
      cookies: { mam_refresh: "r3fresh" },
      headers: { Authorization: `Bearer ${jwt}`, Cookie: "mam_refresh=r3fresh", "User-Agent": "Mozilla/5.0", "X-Request-Id": "req-1" },
      data: { passwd: "hunter2" },
    },
    user: { id: "u-1", email: "anna@example.org", ip_address: "203.0.113.9", username: "anna" },
    tags: { request_id: "req-1" },
    extra: { body: { user: "anna", passwd: "hunter2", file_name: "Отпуск.mov", token: robotToken }, apiKey: "k-123" },
    exception: {
      values: [
        {
          type: "ApiError",
          value: `Нет доступа к «Отпуск.mov» (${robotToken})`,
          stacktrace: {
            frames: [
              {
                filename: "app/lib/api.ts",
                function: "request",
                lineno: 10,
                abs_path: "https://mam.example/assets/api-1.js",
                vars: { password: "hunter2" },
              },
            ],
          },
        },
      ],
    },
    breadcrumbs: [
      { category: "fetch", data: { url: `/api/sl/${linkId}/unlock?password=hunter2`, method: "POST", status_code: 401 } },
      { category: "navigation", data: { from: `/sl/${linkId}`, to: "/mam" } },
      { category: "console", message: `token ${jwt}` },
    ],
  });

  const secrets = [
    jwt,
    robotToken,
    linkId,
    "hunter2",
    "r3fresh",
    "s1gnature",
    "holiday",
    "Отпуск",
    "anna@example.org",
    "203.0.113.9",
    "k-123",
  ];

  it("leaves no secret, share-link id, file name or personal detail anywhere in the event", () => {
    expect(leaks(scrubEvent(event()), secrets)).toEqual([]);
  });

  it("drops Authorization and Cookie headers, cookies, the query string and the body; keeps other headers", () => {
    const out = scrubEvent(event());
    expect(out.request.headers).toEqual({ "User-Agent": "Mozilla/5.0", "X-Request-Id": "req-1" });
    expect(out.request).not.toHaveProperty("cookies");
    expect(out.request).not.toHaveProperty("query_string");
    expect(out.request).not.toHaveProperty("data");
    expect(out.request.url).toBe("https://mam.example/api/sl/[id]/download?[Filtered]");
  });

  it("keeps the user's id only, and the request id tag", () => {
    const out = scrubEvent(event());
    expect(out.user).toEqual({ id: "u-1" });
    expect(out.tags).toEqual({ request_id: "req-1" });
  });

  it("keeps stack frames' code locations but scrubs their variables", () => {
    const frame = scrubEvent(event()).exception.values[0].stacktrace.frames[0];
    expect(frame).toMatchObject({
      filename: "app/lib/api.ts",
      function: "request",
      lineno: 10,
      abs_path: "https://mam.example/assets/api-1.js",
    });
    expect(frame.vars).toEqual({ password: FILTERED });
  });

  it("filters values by key: passwords, tokens, API keys and file names", () => {
    const out = scrubEvent(event());
    expect(out.extra.body).toEqual({ user: "anna", passwd: FILTERED, file_name: FILTERED, token: FILTERED });
    expect(out.extra.apiKey).toBe(FILTERED);
  });

  it("does not change the event it was given", () => {
    const original = event();
    scrubEvent(original);
    expect(original.request.headers.Authorization).toBe(`Bearer ${jwt}`);
  });
});

describe("scrubBreadcrumb", () => {
  it("scrubs a fetch breadcrumb's URL and a console breadcrumb's message", () => {
    const fetchCrumb = scrubBreadcrumb({ category: "fetch", data: { url: `/api/sl/${linkId}/unlock?password=hunter2`, status_code: 401 } });
    expect(fetchCrumb).toEqual({ category: "fetch", data: { url: "/api/sl/[id]/unlock?[Filtered]", status_code: 401 } });
    expect(leaks(scrubBreadcrumb({ category: "console", message: `Bearer ${jwt}` }), [jwt])).toEqual([]);
  });
});
